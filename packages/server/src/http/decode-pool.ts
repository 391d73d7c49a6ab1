/**
 * A small pool of worker threads that decode big request bodies (decode-worker.ts), so parsing
 * a limit-sized body does not hold the event loop that serves every other client.
 *
 * Written here rather than taken from a pool library: the server needs one job per worker at a
 * time, a 500 for the job of a worker that dies (and a fresh worker for the next job), and
 * workers that never keep the process alive while idle; that is less code than adapting a
 * general pool, and the server package keeps no runtime dependency for it.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { errors, StatusError } from "../api/status.js";
import type { DecodedObject, DecodedPatch, DecodeTask } from "./body-decode.js";
import type { DecodeJob, DecodeReply } from "./decode-worker.js";

interface Pending {
  readonly job: DecodeJob;
  readonly resolve: (v: DecodedObject | DecodedPatch) => void;
  readonly reject: (e: unknown) => void;
}

/** Heap limit of one worker: a body that blows it fails alone (500), the server goes on. */
const WORKER_HEAP_MB = 512;
const MAX_WORKERS = Math.max(1, Math.min(4, availableParallelism() - 1));

// Run from TypeScript sources (tests, benchmarks), the worker registers tsx before loading its
// entry: loader hooks of the parent thread do not reach workers, nor does `--import` in execArgv.
const fromSource = import.meta.url.endsWith(".ts");
const ENTRY = new URL(`./decode-worker.${fromSource ? "ts" : "js"}`, import.meta.url);

function tsxApi(): string {
  try {
    return import.meta.resolve("tsx/esm/api");
  } catch {
    return "tsx/esm/api";
  }
}

function startWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (!fromSource) return new Worker(ENTRY, options);
  const boot = `import(${JSON.stringify(tsxApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(ENTRY.href)}); });`;
  return new Worker(boot, { ...options, eval: true, execArgv: ["--conditions=source"] });
}

class PoolWorker {
  private readonly worker: Worker;
  current: Pending | undefined;
  private dead = false;

  constructor(
    private readonly onFree: (w: PoolWorker) => void,
    private readonly onDead: (w: PoolWorker) => void,
  ) {
    this.worker = startWorker();
    this.worker.unref();
    this.worker.on("message", (reply: DecodeReply) => this.settle(reply));
    this.worker.on("error", (e) => this.die(e.message));
    this.worker.on("exit", (code) => this.die(`decode worker exited with code ${code}`));
  }

  stop(): void {
    this.die("decode worker stopped");
  }

  start(p: Pending): void {
    this.current = p;
    this.worker.ref();
    this.worker.postMessage(p.job);
  }

  private settle(reply: DecodeReply): void {
    const p = this.current;
    if (!p || reply.id !== p.job.id) return;
    this.current = undefined;
    this.worker.unref();
    if (reply.ok) p.resolve(reply.result as DecodedObject | DecodedPatch);
    else if ("status" in reply) p.reject(new StatusError(reply.status));
    else p.reject(errors.internal(reply.failure));
    this.onFree(this);
  }

  private die(why: string): void {
    if (this.dead) return;
    this.dead = true;
    const p = this.current;
    this.current = undefined;
    this.onDead(this);
    void this.worker.terminate();
    p?.reject(errors.internal(why));
  }
}

class DecodePool {
  private readonly idle: PoolWorker[] = [];
  private readonly all = new Set<PoolWorker>();
  private readonly queue: Pending[] = [];
  private nextId = 1;

  run(raw: Buffer, task: DecodeTask): Promise<DecodedObject | DecodedPatch> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { id: this.nextId++, raw, task }, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let w = this.idle.pop();
      if (!w && this.all.size < MAX_WORKERS) {
        w = new PoolWorker(
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

  /** Ends every worker; a job they had fails with a 500, later jobs start new workers. */
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

let pool: DecodePool | undefined;

/** Decodes a body on a worker thread: the same result or Status as in-process, a 500 if the worker fails. */
export function decodeOffThread(raw: Buffer, task: DecodeTask): Promise<DecodedObject | DecodedPatch> {
  pool ??= new DecodePool();
  return pool.run(raw, task);
}

/** Ends the decode workers (a body they were decoding gets a 500); the next big body starts new ones. */
export function stopDecodeWorkers(): void {
  pool?.stop();
}
