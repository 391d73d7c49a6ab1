/**
 * A small pool of worker threads for CPU-heavy jobs (decoding big bodies, expensive CEL rules), so
 * such a job does not hold the event loop that serves every other client.
 *
 * Written here rather than taken from a pool library: the server needs one job per worker at a
 * time, a typed error for the job of a worker that dies or overruns its time (and a fresh worker
 * for the next job), and workers that never keep the process alive while idle; that is less code
 * than adapting a general pool, and the server package keeps no runtime dependency for it.
 */
import { availableParallelism } from "node:os";
import { type MessagePort, Worker } from "node:worker_threads";
import { type Status, StatusError } from "./status.js";

/** What a worker entry answers for job `id`: its result, a Status, or an unexpected failure's text. */
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly status: Status }
  | { readonly id: number; readonly ok: false; readonly failure: string };

export interface WorkerPoolOptions {
  /** What the workers do, in failure messages ("decode": "decode worker exited with code 1"). */
  readonly name: string;
  /** Starts one worker thread. */
  readonly start: () => Worker;
  /** The error a job fails with when its worker failed (`why`): a typed Status, never a crash. */
  readonly failed: (why: string) => Error;
  /** A job still running this long after its worker began running ends the worker and fails alone; none when unset. */
  readonly timeoutMs?: number;
}

interface Pending {
  readonly id: number;
  readonly message: (known: Set<string>) => unknown;
  readonly resolve: (v: unknown) => void;
  readonly reject: (e: unknown) => void;
}

const MAX_WORKERS = Math.max(1, Math.min(4, availableParallelism() - 1));

// Run from TypeScript sources (tests, benchmarks), a worker registers tsx before loading its
// entry: loader hooks of the parent thread do not reach workers, nor does `--import` in execArgv.
function tsxApi(): string {
  try {
    return import.meta.resolve("tsx/esm/api");
  } catch {
    return "tsx/esm/api";
  }
}

/** Starts the worker whose entry is `entry` (a `.ts` entry through tsx), with a heap limit. */
export function startEntry(entry: URL, heapMb: number): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: heapMb } };
  if (!entry.pathname.endsWith(".ts")) return new Worker(entry, options);
  const boot = `import(${JSON.stringify(tsxApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { ...options, eval: true, execArgv: ["--conditions=source"] });
}

class PoolWorker {
  private readonly worker: Worker;
  /** Keys of what this worker holds already (e.g. compiled programs), for the job's message. */
  readonly known = new Set<string>();
  current: Pending | undefined;
  private timer: NodeJS.Timeout | undefined;
  private dead = false;
  /** Whether the worker runs its script yet: a job's time limit counts from then, not its boot. */
  private online = false;

  constructor(
    private readonly opts: WorkerPoolOptions,
    private readonly onFree: (w: PoolWorker) => void,
    private readonly onDead: (w: PoolWorker) => void,
  ) {
    this.worker = opts.start();
    this.worker.unref();
    this.worker.on("online", () => {
      this.online = true;
      if (this.current) this.armTimer();
    });
    this.worker.on("message", (reply: WorkerReply) => this.settle(reply));
    this.worker.on("error", (e) => this.die(e.message));
    this.worker.on("exit", (code) => this.die(`${opts.name} worker exited with code ${code}`));
  }

  stop(): void {
    this.die(`${this.opts.name} worker stopped`);
  }

  start(p: Pending): void {
    this.current = p;
    this.worker.ref();
    // A fresh worker's boot (its isolate and modules) can take longer than the limit on a loaded
    // machine; the limit is for the job, so it starts once the worker runs (the "online" event).
    if (this.online) this.armTimer();
    try {
      this.worker.postMessage(p.message(this.known));
    } catch (e) {
      // A value the structured clone cannot carry: the job fails alone, the worker stays.
      this.finish();
      p.reject(this.opts.failed((e as Error).message));
      this.onFree(this);
    }
  }

  private armTimer(): void {
    const timeout = this.opts.timeoutMs;
    if (timeout === undefined) return;
    this.timer = setTimeout(
      () => this.die(`${this.opts.name} worker did not answer within ${timeout} ms`),
      timeout,
    );
  }

  private finish(): void {
    clearTimeout(this.timer);
    this.current = undefined;
    this.worker.unref();
  }

  private settle(reply: WorkerReply): void {
    const p = this.current;
    if (!p || reply.id !== p.id) return;
    this.finish();
    if (reply.ok) p.resolve(reply.result);
    else if ("status" in reply) p.reject(new StatusError(reply.status));
    else p.reject(this.opts.failed(reply.failure));
    this.onFree(this);
  }

  private die(why: string): void {
    if (this.dead) return;
    this.dead = true;
    const p = this.current;
    clearTimeout(this.timer);
    this.current = undefined;
    this.onDead(this);
    void this.worker.terminate();
    p?.reject(this.opts.failed(why));
  }
}

export class WorkerPool {
  private readonly idle: PoolWorker[] = [];
  private readonly all = new Set<PoolWorker>();
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(private readonly opts: WorkerPoolOptions) {}

  /**
   * Runs one job; `message` builds what is posted for the job's id, knowing what the worker that
   * takes it holds already (`known`, which it may add to).
   */
  run(message: (id: number, known: Set<string>) => unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.queue.push({ id, message: (known) => message(id, known), resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let w = this.idle.pop();
      if (!w && this.all.size < MAX_WORKERS) {
        w = new PoolWorker(
          this.opts,
          (free) => {
            this.idle.push(free);
            this.dispatch();
          },
          (dead) => this.remove(dead),
        );
        this.all.add(w);
      }
      if (!w) return;
      w.start(this.queue.shift() as Pending);
    }
  }

  /** Ends every worker; a job they had fails, later jobs start new workers. */
  stop(): void {
    for (const w of [...this.all]) w.stop();
  }

  private remove(dead: PoolWorker): void {
    const i = this.idle.indexOf(dead);
    if (i >= 0) this.idle.splice(i, 1);
    this.all.delete(dead);
    this.dispatch();
  }
}

/** A worker entry's answer to one job: the result, a StatusError's Status, or a failure's text. */
function replyTo(id: number, work: () => unknown): WorkerReply {
  try {
    return { id, ok: true, result: work() };
  } catch (e) {
    if (e instanceof StatusError) return { id, ok: false, status: e.status };
    return { id, ok: false, failure: e instanceof Error ? e.message : String(e) };
  }
}

/** Posts the answer to one job through a worker's port. */
export function answer(port: MessagePort, id: number, work: () => unknown): void {
  try {
    port.postMessage(replyTo(id, work));
  } catch (e) {
    // A value the structured clone cannot carry: the job fails alone, the worker stays.
    port.postMessage({ id, ok: false, failure: (e as Error).message } satisfies WorkerReply);
  }
}
