/**
 * Delivery to one handler: notifications wait in this handler's own queue, so a slow handler delays
 * only itself — never the watch stream or the other handlers.
 *
 * Bound and policy: a handler may fall behind by one store's worth of notifications (what one relist
 * or resync can produce) plus `maxPending`. Past that its backlog is dropped and replaced, once the
 * handler is free again, by the difference between the state it has seen and the store's state then:
 * adds for objects it never saw, one update(seen, current) per object that changed, and a
 * DeletedFinalStateUnknown tombstone per object that vanished. The handler thus skips intermediate
 * states but ends up exactly in step with the store, and memory stays within O(store + maxPending).
 * Each drop is reported (`onOverflow`).
 */
import { HandlerError } from "./errors.js";
import { Fifo } from "./fifo.js";
import type { AddInfo, EventHandlers, Notification } from "./handlers.js";
import { DeletedFinalStateUnknown } from "./tombstone.js";

/** The part of the store a queue reads when it has to catch up. */
export interface StoreView<T> {
  readonly size: number;
  entries(): Iterable<[string, T]>;
  keyOf(obj: T): string;
}

export interface HandlerQueueOptions<T> {
  readonly name: string;
  readonly handlers: EventHandlers<T>;
  readonly maxPending: number;
  readonly store: StoreView<T>;
  readonly onError: (err: HandlerError) => void;
  readonly onOverflow: (dropped: number) => void;
  readonly onSynced: () => void;
}

// The second argument of `add`, shared by all calls (frozen: a handler cannot change it for others).
const IN_INITIAL_LIST: AddInfo = Object.freeze({ isInInitialList: true });
const NOT_IN_INITIAL_LIST: AddInfo = Object.freeze({ isInInitialList: false });

// Synchronous handlers run in slices of about SLICE_MS; between slices the event loop gets a turn
// (I/O, timers). The clock is read every CHECK_EVERY calls. A fixed count per slice (it was 256 calls)
// parked the drain until the next loop turn while the watch reader went on queueing: a socket read
// that brings more events than that per turn left a handler that does nothing further behind with
// every read, until its queue overflowed (docs/performance-history.md, "Handlers that fall behind").
const SLICE_MS = 4;
const CHECK_EVERY = 32;

export class HandlerQueue<T> {
  readonly #opts: HandlerQueueOptions<T>;
  readonly #queue = new Fifo<Notification<T>>();
  /** Notifications waiting: an `adds` entry counts one per object not yet delivered. */
  #pending = 0;
  /** How many objects of the `adds` entry at the head of the queue were delivered. */
  #headDelivered = 0;
  #draining = false;
  #closed = false;
  #synced = false;
  #queuedResyncs = 0;
  /** Set while the backlog is dropped: the state the handler has seen, to catch up from. */
  #seen: Map<string, T> | undefined;
  #catchUp = { initial: false, synced: false };

  constructor(options: HandlerQueueOptions<T>) {
    this.#opts = options;
  }

  get name(): string {
    return this.#opts.name;
  }

  /** True once the handler has been given every object of its initial state. */
  get synced(): boolean {
    return this.#synced;
  }

  /** Notifications waiting (not counting one being handled). */
  get pending(): number {
    return this.#pending;
  }

  /** Whether resync notifications are still waiting (a new resync round is then skipped). */
  get resyncPending(): boolean {
    return this.#queuedResyncs > 0 || this.#seen !== undefined;
  }

  /**
   * Queues the notifications of one store change. Must be called after the store changed, once per
   * change: the bound is checked here, where the store equals what the handler has seen plus its queue.
   */
  enqueue(batch: readonly Notification<T>[]): void {
    if (this.#closed || batch.length === 0) return;
    if (this.#seen !== undefined) {
      // Catching up from the store covers these; only the end-of-initial marker must survive.
      if (batch.some((n) => n.type === "synced")) this.#catchUp.synced = true;
      return;
    }
    for (const n of batch) this.#push(n);
    if (this.#pending > this.#opts.maxPending + this.#opts.store.size) this.#overflow();
    this.#schedule();
  }

  /**
   * {@link enqueue} for a change with one notification (the watch path), without an array.
   * Returns how many notifications now wait.
   */
  enqueueOne(n: Notification<T>): number {
    if (this.#closed) return 0;
    if (this.#seen !== undefined) {
      if (n.type === "synced") this.#catchUp.synced = true;
      return 0;
    }
    this.#push(n);
    if (this.#pending > this.#opts.maxPending + this.#opts.store.size) this.#overflow();
    this.#schedule();
    return this.#pending;
  }

  /** Drops everything and delivers nothing more. */
  close(): void {
    this.#closed = true;
    this.#clear();
    this.#seen = undefined;
  }

  #push(n: Notification<T>): void {
    if (n.type === "adds") {
      if (n.objs.length === 0) return;
      this.#pending += n.objs.length;
    } else this.#pending++;
    this.#queue.push(n);
    if (n.type === "update" && n.resync) this.#queuedResyncs++;
  }

  #clear(): void {
    this.#queue.clear();
    this.#pending = 0;
    this.#headDelivered = 0;
  }

  #overflow(): void {
    // The handler has seen the store's state minus everything still queued: undo the queue, newest first.
    const keyOf = (obj: T) => this.#opts.store.keyOf(obj);
    const seen = new Map(this.#opts.store.entries());
    let initial = false;
    let synced = false;
    const head = this.#queue.peek();
    for (const n of this.#queue.reversed()) {
      switch (n.type) {
        case "add":
          seen.delete(keyOf(n.obj));
          initial ||= n.isInInitialList;
          break;
        case "adds":
          // Of the entry being delivered, only what is left is still queued.
          for (let i = n.objs.length - 1; i >= (n === head ? this.#headDelivered : 0); i--)
            seen.delete(keyOf(n.objs[i] as T));
          initial ||= n.isInInitialList;
          break;
        case "update":
          seen.set(keyOf(n.oldObj), n.oldObj);
          break;
        case "delete":
          if (n.obj instanceof DeletedFinalStateUnknown) seen.set(n.obj.key, n.obj.obj);
          else seen.set(keyOf(n.obj), n.obj);
          break;
        case "synced":
          synced = true;
          break;
      }
    }
    const dropped = this.#pending;
    this.#clear();
    this.#queuedResyncs = 0;
    this.#seen = seen;
    this.#catchUp = { initial, synced };
    this.#opts.onOverflow(dropped);
  }

  /** Replaces the dropped backlog by the difference between what the handler saw and the store now. */
  #catchUpFromStore(seen: Map<string, T>): void {
    this.#seen = undefined;
    const { initial, synced } = this.#catchUp;
    for (const [key, obj] of this.#opts.store.entries()) {
      const before = seen.get(key);
      if (before === undefined) {
        this.#push({ type: "add", obj, isInInitialList: initial });
        continue;
      }
      seen.delete(key);
      // Stored objects are immutable and replaced on every change, so identity tells change.
      if (before !== obj) this.#push({ type: "update", oldObj: before, newObj: obj });
    }
    for (const [key, obj] of seen)
      this.#push({ type: "delete", obj: new DeletedFinalStateUnknown(key, obj) });
    if (synced) this.#push({ type: "synced" });
  }

  #schedule(): void {
    if (this.#draining || this.#closed) return;
    this.#draining = true;
    queueMicrotask(() => void this.#drain());
  }

  async #drain(): Promise<void> {
    let calls = 0;
    let sliceStart = performance.now();
    try {
      while (!this.#closed) {
        if (this.#seen !== undefined) this.#catchUpFromStore(this.#seen);
        const pending = this.#deliverNext();
        if (pending === null) break;
        if (pending !== undefined) {
          await pending;
          calls = 0;
          sliceStart = performance.now();
        } else if (++calls >= CHECK_EVERY) {
          calls = 0;
          if (performance.now() - sliceStart >= SLICE_MS) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            sliceStart = performance.now();
          }
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  /**
   * Takes the next notification off the queue and calls the handler: null when none waits, a
   * promise only when the handler returned one.
   */
  #deliverNext(): Promise<void> | undefined | null {
    const n = this.#queue.peek();
    if (n === undefined) return null;
    this.#pending--;
    if (n.type === "adds") {
      const obj = n.objs[this.#headDelivered++] as T;
      if (this.#headDelivered === n.objs.length) {
        this.#queue.shift();
        this.#headDelivered = 0;
      }
      return this.#add(obj, n.isInInitialList);
    }
    this.#queue.shift();
    if (n.type === "synced") {
      this.#synced = true;
      this.#opts.onSynced();
      return undefined;
    }
    if (n.type === "add") return this.#add(n.obj, n.isInInitialList);
    if (n.type === "update" && n.resync) this.#queuedResyncs--;
    const h = this.#opts.handlers;
    try {
      return this.#settle(n.type, n.type === "update" ? h.update?.(n.oldObj, n.newObj) : h.delete?.(n.obj));
    } catch (err) {
      this.#fail(n.type, err);
      return undefined;
    }
  }

  #add(obj: T, initial: boolean): Promise<void> | undefined {
    try {
      return this.#settle(
        "add",
        this.#opts.handlers.add?.(obj, initial ? IN_INITIAL_LIST : NOT_IN_INITIAL_LIST),
      );
    } catch (err) {
      this.#fail("add", err);
      return undefined;
    }
  }

  /** What a handler returned: a promise to wait for (its rejection reported), or nothing. */
  #settle(type: "add" | "update" | "delete", result: unknown): Promise<void> | undefined {
    if (!isThenable(result)) return undefined;
    return Promise.resolve(result).then(
      () => undefined,
      (err: unknown) => this.#fail(type, err),
    );
  }

  #fail(type: "add" | "update" | "delete", err: unknown): void {
    if (!this.#closed) this.#opts.onError(new HandlerError(this.#opts.name, type, err));
  }
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as { then?: unknown } | null)?.then === "function";
}
