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

// Synchronous handlers are run in batches; between batches the event loop gets a turn (I/O, timers).
const YIELD_EVERY = 256;

export class HandlerQueue<T> {
  readonly #opts: HandlerQueueOptions<T>;
  readonly #queue = new Fifo<Notification<T>>();
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
    return this.#queue.length;
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
    for (const n of batch) {
      this.#queue.push(n);
      if (n.type === "update" && n.resync) this.#queuedResyncs++;
    }
    if (this.#queue.length > this.#opts.maxPending + this.#opts.store.size) this.#overflow();
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
    this.#queue.push(n);
    if (n.type === "update" && n.resync) this.#queuedResyncs++;
    if (this.#queue.length > this.#opts.maxPending + this.#opts.store.size) this.#overflow();
    this.#schedule();
    return this.#queue.length;
  }

  /** Drops everything and delivers nothing more. */
  close(): void {
    this.#closed = true;
    this.#queue.clear();
    this.#seen = undefined;
  }

  #overflow(): void {
    // The handler has seen the store's state minus everything still queued: undo the queue, newest first.
    const keyOf = (obj: T) => this.#opts.store.keyOf(obj);
    const seen = new Map(this.#opts.store.entries());
    let initial = false;
    let synced = false;
    for (const n of this.#queue.reversed()) {
      switch (n.type) {
        case "add":
          seen.delete(keyOf(n.obj));
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
    const dropped = this.#queue.length;
    this.#queue.clear();
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
        this.#queue.push({ type: "add", obj, isInInitialList: initial });
        continue;
      }
      seen.delete(key);
      // Stored objects are immutable and replaced on every change, so identity tells change.
      if (before !== obj) this.#queue.push({ type: "update", oldObj: before, newObj: obj });
    }
    for (const [key, obj] of seen)
      this.#queue.push({ type: "delete", obj: new DeletedFinalStateUnknown(key, obj) });
    if (synced) this.#queue.push({ type: "synced" });
  }

  #schedule(): void {
    if (this.#draining || this.#closed) return;
    this.#draining = true;
    queueMicrotask(() => void this.#drain());
  }

  async #drain(): Promise<void> {
    let sinceYield = 0;
    try {
      while (!this.#closed) {
        if (this.#seen !== undefined) this.#catchUpFromStore(this.#seen);
        const n = this.#queue.shift();
        if (n === undefined) break;
        if (n.type === "update" && n.resync) this.#queuedResyncs--;
        const pending = this.#deliver(n);
        if (pending !== undefined) {
          await pending;
          sinceYield = 0;
        } else if (++sinceYield >= YIELD_EVERY) {
          sinceYield = 0;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  /** Calls the handler; returns a promise only when the handler returned one. */
  #deliver(n: Notification<T>): Promise<void> | undefined {
    if (n.type === "synced") {
      this.#synced = true;
      this.#opts.onSynced();
      return undefined;
    }
    const h = this.#opts.handlers;
    let result: unknown;
    try {
      if (n.type === "add")
        result = h.add?.(n.obj, n.isInInitialList ? IN_INITIAL_LIST : NOT_IN_INITIAL_LIST);
      else if (n.type === "update") result = h.update?.(n.oldObj, n.newObj);
      else result = h.delete?.(n.obj);
    } catch (err) {
      this.#fail(n.type, err);
      return undefined;
    }
    if (!isThenable(result)) return undefined;
    return Promise.resolve(result).then(
      () => undefined,
      (err: unknown) => this.#fail(n.type, err),
    );
  }

  #fail(type: "add" | "update" | "delete", err: unknown): void {
    if (!this.#closed) this.#opts.onError(new HandlerError(this.#opts.name, type, err));
  }
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as { then?: unknown } | null)?.then === "function";
}
