/**
 * Plain undici requests and JSON watch streams against a BenchTarget: the benchmark measures the
 * servers, so the client side stays as thin as it can (no SDK layers in the way).
 */
import { Agent, request } from "undici";
import type { BenchTarget } from "./bench-targets.js";

export class BenchHttpError extends Error {
  override readonly name = "BenchHttpError";
  constructor(
    readonly code: "BENCH_REQUEST_FAILED" | "BENCH_WATCH_FAILED" | "BENCH_TIMEOUT",
    message: string,
  ) {
    super(message);
  }
}

export type BenchMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface CallOptions {
  /** Sent as is when a string, as JSON otherwise. */
  readonly body?: unknown;
  /** Of the body; application/json unless given. */
  readonly contentType?: string;
  /** application/json unless given. */
  readonly accept?: string;
}

export interface BenchResponse {
  readonly bytes: Buffer;
  readonly contentType: string;
}

export interface BenchHttp {
  /** One request; resolves with the response text, rejects on a status >= 300. */
  call(method: BenchMethod, path: string, body?: unknown): Promise<string>;
  /** One request with its media types chosen; resolves with the response bytes. */
  send(method: BenchMethod, path: string, options: CallOptions): Promise<BenchResponse>;
  /**
   * Opens a watch and returns once its response headers arrived. `countOnly` streams only count
   * events (one per line) without parsing them, so a thousand watchers do not make this client
   * the bottleneck; arrivalOf is then unavailable.
   */
  watch(path: string, countOnly?: boolean): Promise<WatchStream>;
  close(): Promise<void>;
}

export interface BenchHttpOptions {
  /** Connections for requests (watches get their own pool). */
  readonly connections: number;
  /** Offer HTTP/2 in TLS negotiation (ALPN h2); the server decides. */
  readonly http2?: boolean;
}

export interface WatchStream {
  /** performance.now() at the arrival of the first event naming `name` (it may already be here). */
  arrivalOf(name: string): Promise<number>;
  /** Resolves with performance.now() once `count` events arrived in total. */
  countReached(count: number): Promise<number>;
  close(): void;
}

export function benchHttp(target: BenchTarget, options: BenchHttpOptions): BenchHttp {
  const h2 = options.http2 ? { allowH2: true } : {};
  const agent = new Agent({ connect: { ca: target.ca }, connections: options.connections, ...h2 });
  // Watches hold their connection for their lifetime (HTTP/1.1), so they get their own pool.
  const watchAgent = new Agent({ connect: { ca: target.ca }, ...h2 });
  const auth = { authorization: `Bearer ${target.token}` };
  const send = async (method: BenchMethod, path: string, o: CallOptions): Promise<BenchResponse> => {
    const headers: Record<string, string> = { ...auth, accept: o.accept ?? "application/json" };
    if (o.body !== undefined) headers["content-type"] = o.contentType ?? "application/json";
    const res = await request(target.url + path, {
      method,
      headers,
      body: o.body === undefined ? undefined : typeof o.body === "string" ? o.body : JSON.stringify(o.body),
      dispatcher: agent,
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode >= 300) {
      throw new BenchHttpError(
        "BENCH_REQUEST_FAILED",
        `${method} ${path}: ${res.statusCode} ${bytes.toString("utf8", 0, 200)}`,
      );
    }
    return { bytes, contentType: String(res.headers["content-type"] ?? "") };
  };
  return {
    send,
    async call(method, path, body) {
      return (await send(method, path, { body })).bytes.toString("utf8");
    },
    async watch(path, countOnly = false) {
      const res = await request(target.url + path, {
        headers: { ...auth, accept: "application/json" },
        dispatcher: watchAgent,
      });
      if (res.statusCode !== 200) {
        const text = await res.body.text();
        throw new BenchHttpError(
          "BENCH_WATCH_FAILED",
          `watch ${path}: ${res.statusCode} ${text.slice(0, 200)}`,
        );
      }
      return new JsonWatchStream(res.body, path, countOnly);
    },
    async close() {
      await Promise.all([agent.close(), watchAgent.close()]);
    },
  };
}

interface WatchBody {
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  on(event: "error" | "end", listener: (error?: Error) => void): unknown;
  destroy(): void;
}

interface Waiter {
  resolve(at: number): void;
  reject(error: Error): void;
}

/** Splits the newline-delimited JSON watch body; stamps each event with its arrival time. */
class JsonWatchStream implements WatchStream {
  private readonly arrivals = new Map<string, number>();
  private readonly nameWaiters = new Map<string, Waiter>();
  private readonly countWaiters = new Map<number, Waiter>();
  private events = 0;
  private partial = "";
  private failure: Error | undefined;
  private closed = false;

  constructor(
    private readonly body: WatchBody,
    private readonly path: string,
    countOnly: boolean,
  ) {
    body.on("data", (chunk) => (countOnly ? this.onCountedData(chunk) : this.onData(chunk)));
    body.on("error", (error) => this.fail(error ?? new Error("stream error")));
    body.on("end", () => this.fail(new Error("stream ended")));
  }

  arrivalOf(name: string): Promise<number> {
    const at = this.arrivals.get(name);
    if (at !== undefined) return Promise.resolve(at);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.nameWaiters.set(name, { resolve, reject }));
  }

  countReached(count: number): Promise<number> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.events >= count) {
      // Its arrival time is gone; callers register before the writes that produce the events.
      return Promise.reject(new BenchHttpError("BENCH_WATCH_FAILED", `already past ${count} events`));
    }
    return new Promise((resolve, reject) => this.countWaiters.set(count, { resolve, reject }));
  }

  close(): void {
    this.closed = true;
    this.body.destroy();
  }

  /** Every event is one line: counting newlines is enough, and cheap for many watchers. */
  private onCountedData(chunk: Buffer): void {
    const at = performance.now();
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) this.counted(at);
  }

  private counted(at: number): void {
    this.events++;
    const waiter = this.countWaiters.get(this.events);
    if (waiter === undefined) return;
    waiter.resolve(at);
    this.countWaiters.delete(this.events);
  }

  private onData(chunk: Buffer): void {
    const at = performance.now();
    const lines = (this.partial + chunk.toString("utf8")).split("\n");
    this.partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      const event = JSON.parse(line) as { type?: string; object?: { metadata?: { name?: string } } };
      if (event.type === "ERROR") {
        this.fail(new Error(`ERROR event ${line.slice(0, 200)}`));
        return;
      }
      const name = event.object?.metadata?.name;
      if (name !== undefined && !this.arrivals.has(name)) {
        this.arrivals.set(name, at);
        this.nameWaiters.get(name)?.resolve(at);
        this.nameWaiters.delete(name);
      }
      this.counted(at);
    }
  }

  private fail(cause: Error): void {
    if (this.closed || this.failure) return;
    this.failure = new BenchHttpError("BENCH_WATCH_FAILED", `watch ${this.path}: ${cause.message}`);
    for (const waiter of [...this.nameWaiters.values(), ...this.countWaiters.values()]) {
      waiter.reject(this.failure);
    }
    this.nameWaiters.clear();
    this.countWaiters.clear();
  }
}

/** Rejects with BENCH_TIMEOUT if `promise` has not settled after `ms`, so a lost event cannot hang the run. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BenchHttpError("BENCH_TIMEOUT", `${what}: no answer in ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
