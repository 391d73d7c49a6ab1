// The work queue of a controller; its contract is on the class.
import { type Clock, systemClock, type Timer } from "./clock.js";
import { DelayHeap } from "./delay-heap.js";
import { ControllerError } from "./errors.js";
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

/**
 * WorkQueue: the queue between event handlers and reconcile workers. It behaves as client-go's
 * rate-limiting work queue (k8s.io/client-go/util/workqueue: the typed queue under the delaying
 * queue under the rate-limiting queue); scripts/workqueue-diff runs both on the same random
 * operation sequences and compares every result.
 *
 * Contract (keys compare like Map keys, so use strings or numbers for structured keys):
 * - A key waiting in the queue is stored once, however often it is added before a worker takes it.
 * - A key is never handed to two workers at once: a key added while a worker processes it is
 *   handed out again only after that worker calls `done(key)`.
 * - `addAfter(key, ms)` adds the key once `ms` have passed on the queue's clock (`ms` ≤ 0: at once);
 *   several pending delays of one key collapse to the earliest. Keys due at the same instant are
 *   queued in client-go's order (see delay-heap.ts), not necessarily the order they were delayed.
 * - `addRateLimited(key)` is `addAfter(key, rateLimiter.when(key))`; `forget(key)` ends the key's
 *   backoff history, `retries(key)` counts the rate-limited adds since.
 * - `shutDown()`: adds (also delayed and rate-limited ones) are ignored from then on and keys still
 *   waiting for a delay are dropped. Keys already queued are still handed out, and so is a key
 *   that was re-added while processed, once it is done; `get()` resolves to undefined only when
 *   nothing is queued, and getters already waiting (so nothing was queued) get undefined at once.
 *   It also releases a pending `shutDownWithDrain()`.
 * - `shutDownWithDrain()` shuts down the same way and resolves once no key is being processed
 *   (keys still queued do not hold it up), or when `shutDown()` is called.
 *
 * Where we differ from client-go, on purpose (each has a unit test in test/work-queue.test.ts):
 * - `done(key)` for a key that is not being processed does nothing; client-go queues the key a
 *   second time if it is waiting, so one key could reach two workers.
 * - A key finishing releases every pending `shutDownWithDrain()`; client-go wakes one of them.
 * - Every `shutDown()` releases a pending drain; client-go's delaying queue ignores all but the
 *   first `shutDown()`, so shutDown, shutDownWithDrain, shutDown leaves its drain waiting.
 * - Which of several waiting `get()`s receives a key: the one waiting longest; in client-go any.
 * - `addAfter` with NaN or ±Infinity throws a typed error (a Go duration cannot be either).
 */
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
  /** Keys waiting for a delay; one timer, set for the earliest. */
  readonly #delayed = new DelayHeap<K>();
  #timer: { readonly at: number; readonly handle: Timer } | undefined;
  readonly #getters: ((key: K | undefined) => void)[] = [];
  readonly #drains: (() => void)[] = [];
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

  /** Adds the key after `ms` (at once when `ms` ≤ 0); a finite number, else a typed error. */
  addAfter(key: K, ms: number): void {
    if (typeof ms !== "number" || !Number.isFinite(ms))
      throw new ControllerError("INVALID_OPTION", `delay must be a finite number, got ${ms}`);
    if (this.#shuttingDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    this.#delayed.schedule(key, this.#clock.now() + ms);
    this.#armTimer();
  }

  addRateLimited(key: K): void {
    // when() counts the retry even after shutdown, as client-go's limiter does.
    const ms = this.#limiter.when(key);
    if (this.#shuttingDown) return;
    this.#metrics.retried?.(key);
    this.addAfter(key, ms);
  }

  forget(key: K): void {
    this.#limiter.forget(key);
  }

  retries(key: K): number {
    return this.#limiter.retries(key);
  }

  /**
   * The next key without waiting, or undefined when none is queued. After shutdown it still hands
   * out the keys queued; undefined with `shuttingDown` true means the worker should stop.
   */
  tryGet(): K | undefined {
    if (this.length === 0) return undefined;
    const key = this.#queue[this.#head] as K;
    this.#queue[this.#head] = undefined as K;
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

  /** The next key, waiting for one; undefined once the queue is shut down and empty. */
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
    if (this.#dirty.has(key)) this.#enqueue(key);
    if (this.#processing.size === 0) this.#releaseDrains();
  }

  /** Ignores adds from now on; queued keys are still handed out (see the file's header). */
  shutDown(): void {
    this.#stop();
    this.#releaseDrains();
  }

  /** Shuts down, then resolves once no key is being processed, or when shutDown() is called. */
  shutDownWithDrain(): Promise<void> {
    this.#stop();
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drains.push(resolve));
  }

  #stop(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    this.#timer?.handle.cancel();
    this.#timer = undefined;
    this.#delayed.clear();
    // A getter waits only while nothing is queued, so each one is told to stop.
    for (const resolve of this.#getters.splice(0)) resolve(undefined);
  }

  #releaseDrains(): void {
    for (const resolve of this.#drains.splice(0)) resolve();
  }

  #enqueue(key: K): void {
    this.#queue.push(key);
    const getter = this.#getters.shift();
    if (getter !== undefined) {
      getter(this.tryGet());
      return;
    }
    this.#metrics.depth?.(this.length);
  }

  /** Keeps one timer, due when the earliest delayed key is. */
  #armTimer(): void {
    const at = this.#delayed.peekAt();
    if (this.#timer?.at === at) return;
    this.#timer?.handle.cancel();
    this.#timer = undefined;
    if (at === undefined) return;
    const handle = this.#clock.setTimer(() => this.#fire(), at - this.#clock.now());
    this.#timer = { at, handle };
  }

  #fire(): void {
    this.#timer = undefined;
    const now = this.#clock.now();
    for (let key = this.#delayed.popDue(now); key !== undefined; key = this.#delayed.popDue(now))
      this.add(key);
    this.#armTimer();
  }
}
