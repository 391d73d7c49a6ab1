/**
 * WorkQueue: the queue between event handlers and reconcile workers.
 *
 * Contract (keys compare like Map keys, so use strings or numbers for structured keys):
 * - A key waiting in the queue is stored once, however often it is added before a worker takes it.
 * - A key is never handed to two workers at once: a key added while a worker processes it is
 *   handed out again only after that worker calls `done(key)`.
 * - No key is lost: every key added before shutdown is handed out (again) after its delay.
 * - `addAfter(key, ms)` adds the key once `ms` have passed on the queue's clock; several pending
 *   delays of one key collapse to the earliest.
 * - `addRateLimited(key)` is `addAfter(key, rateLimiter.when(key))`; `forget(key)` ends the key's
 *   backoff history, `retries(key)` counts the rate-limited adds since.
 * - `shutDown()`: adds are ignored, nothing more is handed out, waiting `get()`s resolve to
 *   undefined. `shutDownWithDrain()` does the same and resolves once every key handed out was done.
 */
import { type Clock, systemClock, type Timer } from "./clock.js";
import { checkNumber } from "./errors.js";
import { defaultRateLimiter, type RateLimiter } from "./rate-limiter.js";

/** Observes a queue (Prometheus metrics implement it); every method is optional. */
export interface WorkQueueMetrics<K> {
  /** The key was added (also when it was already waiting). */
  added?(key: K): void;
  /** Keys waiting to be handed out (not counting delayed ones). */
  depth?(n: number): void;
  /** The key was handed out after waiting `ms` in the queue. */
  handedOut?(key: K, ms: number): void;
  /** A worker finished the key after `ms` of work. */
  finished?(key: K, ms: number): void;
  /** A rate-limited add (a retry). */
  retried?(key: K): void;
}

export interface WorkQueueOptions<K> {
  readonly clock?: Clock;
  /** Default: client-go's controller limiter (5 ms doubling to 1000 s per key; 10 qps burst 100). */
  readonly rateLimiter?: RateLimiter<K>;
  readonly metrics?: WorkQueueMetrics<K>;
}

export class WorkQueue<K> {
  readonly #clock: Clock;
  readonly #limiter: RateLimiter<K>;
  readonly #metrics: WorkQueueMetrics<K>;
  /** Keys ready to hand out, in order; each also in #dirty. */
  #queue: K[] = [];
  #head = 0;
  /** Keys that need processing: waiting in #queue, or re-added while being processed. */
  readonly #dirty = new Map<K, number>();
  /** Keys handed out and not yet done, with the time they were handed out. */
  readonly #processing = new Map<K, number>();
  readonly #delayed = new Map<K, { at: number; timer: Timer }>();
  readonly #getters: ((key: K | undefined) => void)[] = [];
  readonly #drained: (() => void)[] = [];
  #shuttingDown = false;

  constructor(options: WorkQueueOptions<K> = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#limiter = options.rateLimiter ?? defaultRateLimiter<K>(this.#clock);
    this.#metrics = options.metrics ?? {};
  }

  /** Keys waiting to be handed out (delayed keys not counted). */
  get length(): number {
    return this.#queue.length - this.#head;
  }

  /** Keys handed out and not yet done. */
  get processing(): number {
    return this.#processing.size;
  }

  /** Keys waiting for their delay to pass. */
  get delayed(): number {
    return this.#delayed.size;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  add(key: K): void {
    if (this.#shuttingDown) return;
    this.#metrics.added?.(key);
    if (this.#dirty.has(key)) return;
    this.#dirty.set(key, this.#clock.now());
    if (this.#processing.has(key)) return;
    this.#enqueue(key);
  }

  addAfter(key: K, ms: number): void {
    checkNumber("delay", ms);
    if (this.#shuttingDown) return;
    if (ms === 0) {
      this.add(key);
      return;
    }
    const at = this.#clock.now() + ms;
    const pending = this.#delayed.get(key);
    if (pending !== undefined) {
      if (pending.at <= at) return;
      pending.timer.cancel();
    }
    const timer = this.#clock.setTimer(() => {
      if (this.#delayed.get(key)?.timer !== timer) return;
      this.#delayed.delete(key);
      this.add(key);
    }, ms);
    this.#delayed.set(key, { at, timer });
  }

  addRateLimited(key: K): void {
    if (this.#shuttingDown) return;
    this.#metrics.retried?.(key);
    this.addAfter(key, this.#limiter.when(key));
  }

  forget(key: K): void {
    this.#limiter.forget(key);
  }

  retries(key: K): number {
    return this.#limiter.retries(key);
  }

  /** The next key without waiting, or undefined when none is ready (or the queue shut down). */
  tryGet(): K | undefined {
    if (this.#shuttingDown || this.length === 0) return undefined;
    const key = this.#queue[this.#head] as K;
    this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    const now = this.#clock.now();
    this.#metrics.handedOut?.(key, now - (this.#dirty.get(key) ?? now));
    this.#metrics.depth?.(this.length);
    this.#dirty.delete(key);
    this.#processing.set(key, now);
    return key;
  }

  /** The next key, waiting for one; undefined once the queue shuts down. */
  get(): Promise<K | undefined> {
    const key = this.tryGet();
    if (key !== undefined || this.#shuttingDown) return Promise.resolve(key);
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  /** Marks a handed-out key finished; if it was added meanwhile it is queued again. */
  done(key: K): void {
    const since = this.#processing.get(key);
    if (since === undefined) return;
    this.#processing.delete(key);
    this.#metrics.finished?.(key, this.#clock.now() - since);
    if (this.#dirty.has(key) && !this.#shuttingDown) this.#enqueue(key);
    if (this.#processing.size === 0) for (const resolve of this.#drained.splice(0)) resolve();
  }

  shutDown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    for (const { timer } of this.#delayed.values()) timer.cancel();
    this.#delayed.clear();
    this.#queue = [];
    this.#head = 0;
    this.#dirty.clear();
    for (const resolve of this.#getters.splice(0)) resolve(undefined);
    this.#metrics.depth?.(0);
  }

  /** Shuts down, then resolves once every handed-out key is done. */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drained.push(resolve));
  }

  #enqueue(key: K): void {
    const getter = this.#getters.shift();
    if (getter !== undefined) {
      this.#queue.push(key);
      getter(this.tryGet());
      return;
    }
    this.#queue.push(key);
    this.#metrics.depth?.(this.length);
  }
}
