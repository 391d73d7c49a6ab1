// The informer: wiring of the reflector, the store and the handlers; its contract is on the class.

import { type Encoding, type ReadClient, ResourceClient } from "@kubesdk/client";
import type { KubernetesList, KubernetesObject } from "@kubesdk/models";
import { EventEmitter } from "eventemitter3";
import { Backoff } from "./backoff.js";
import { InformerStoppedError, InvalidInformerOptionError } from "./errors.js";
import type { ErrorContext, InformerEvents } from "./events.js";
import { HandlerQueue } from "./handler-queue.js";
import type { EventHandlers, HandlerOptions, Notification } from "./handlers.js";
import { ListSpans } from "./list-spans.js";
import { clientListerWatcher } from "./list-watcher.js";
import { resourceVersionOf } from "./object-meta.js";
import { count, type InformerOptions, type ResolvedOptions, resolveOptions } from "./options.js";
import { Reflector, type ReflectorEmit, type ReflectorSink } from "./reflector.js";
import type { InformerSelection } from "./selection.js";
import { InformerStats, type InformerStatsSnapshot } from "./stats.js";
import { type ReadonlyStore, Store } from "./store.js";
import { SyncWaiters, type WaitForSyncOptions } from "./sync-waiters.js";

export type { WaitForSyncOptions } from "./sync-waiters.js";

const SYNCED: Notification<never> = { type: "synced" };

/** A handler's registration on an informer. */
export interface HandlerRegistration {
  readonly name: string;
  /** True once this handler has received every object of its initial state. */
  readonly hasSynced: boolean;
  /** Unregisters the handler: nothing more is delivered to it. */
  remove(): void;
}

interface Registration<T> extends HandlerRegistration {
  readonly queue: HandlerQueue<T>;
  readonly resyncPeriodMs: number;
  timer: ReturnType<typeof setInterval> | undefined;
}

/**
 * An informer: a cache of one resource kept in step with the server by list-then-watch (the
 * reflector), an indexed store, and handlers told about every change. The store is updated first,
 * then each handler's queue receives the notification, so a handler reading the store always sees a
 * state that includes the change it is handling. Lists and watches that fail are retried with
 * backoff; a watch that can no longer continue relists and delivers only the differences.
 *
 * Start it with `start()`, wait with `waitForSync()`, read `store`, and `stop()` it; in a program
 * with several informers, take them from one {@link InformerFactory} (`informers.informer(...)`)
 * so one watch per resource is shared.
 */
export class Informer<T extends KubernetesObject = KubernetesObject> extends EventEmitter<InformerEvents> {
  readonly #options: ResolvedOptions<T>;
  readonly #store: Store<T>;
  readonly #reflector: Reflector<T>;
  readonly #listSpans: ListSpans;
  readonly #handlers = new Set<Registration<T>>();
  readonly #waiters = new SyncWaiters();
  readonly #abort = new AbortController();
  readonly #stats = new InformerStats();
  #phase: "new" | "running" | "stopped" = "new";
  #run: Promise<void> | undefined;
  #detachSignal: () => void = () => {};
  #storeSynced = false;
  #synced = false;
  #lastSyncResourceVersion = "";
  #handlerNumber = 0;
  /** A handler queue this long makes the reflector let handlers run before its next event. */
  readonly #yieldAt: number;

  /**
   * An informer of the resource a client reads: `new Informer(kube.resource("v1", "Pod"), { namespace })`
   * is an `Informer<coreV1.Pod>`; `kube.resource(…).metadataOnly()` caches PartialObjectMetadata.
   */
  constructor(resource: ReadClient<T, { items: T[] }>, options: InformerOptions<T> = {}) {
    super();
    const o = resolveOptions(options);
    this.#options = o;
    this.#store = new Store<T>({ indexers: o.indexers });
    this.#yieldAt = Math.max(1, Math.min(64, Math.floor(o.maxPendingNotifications / 2)));
    const reader = withEncoding(resource, options.encoding);
    const listerWatcher = o.listerWatcher ?? clientListerWatcher<T>(reader, selectionOf(options));
    const sink: ReflectorSink<T> = {
      replace: (items, rv, initial) => this.#replace(items, rv, initial),
      apply: (type, obj, rv) => this.#apply(type, obj, rv),
      bookmark: (rv) => this.#bookmark(rv),
    };
    this.#reflector = new Reflector<T>(
      {
        listerWatcher,
        expectedKind: reader.itemType?.kind,
        pageSize: o.pageSize,
        pageBytes: o.pageBytes,
        streamingList: o.initialList === "stream",
        watchTimeoutSeconds: o.watchTimeoutSeconds,
        idleTimeoutMs: o.idleTimeoutMs,
        minWatchDurationMs: o.minWatchDurationMs,
        backoff: new Backoff(o.backoff, o.random),
        random: o.random,
        transform: o.transform,
      },
      sink,
      // Reflector events are a subset of the informer's.
      (name, ...args) => {
        this.#listSpans.observe(name, args);
        (this.#emit as ReflectorEmit)(name, ...args);
      },
    );
    const item = reader.itemType;
    this.#listSpans = new ListSpans(item === undefined ? "unknown" : `${item.apiVersion} ${item.kind}`);
  }

  /** The cache. Read-only: the informer alone changes it. */
  get store(): ReadonlyStore<T> {
    return this.#store;
  }

  /** True once the initial state is in the store and every handler has received its initial adds. */
  get hasSynced(): boolean {
    return this.#synced;
  }

  /** The resourceVersion of the last list, event or bookmark ("" before the first list). */
  get lastSyncResourceVersion(): string {
    return this.#lastSyncResourceVersion;
  }

  /** The reflector's state: Empty, InitPage, InitListed, StreamingList, Watching, Backoff or Stopped. */
  get reflectorState(): string {
    return this.#reflector.state;
  }

  /** Counters of lists, watches, events by type, backoffs, errors and the store size. */
  stats(): InformerStatsSnapshot {
    return this.#stats.snapshot(this.#store.size, this.#lastSyncResourceVersion);
  }

  /** Adds indexes; objects already cached are indexed at once. */
  addIndexers(indexers: Parameters<Store<T>["addIndexers"]>[0]): void {
    this.#store.addIndexers(indexers);
  }

  /**
   * Registers handlers. A handler added after the initial sync first receives the current store as
   * adds with isInInitialList true, then live changes. Throws InformerStoppedError after stop().
   */
  addEventHandler(handlers: EventHandlers<T>, options: HandlerOptions = {}): HandlerRegistration {
    if (this.#phase === "stopped")
      throw new InformerStoppedError("the informer was stopped; it accepts no new handlers");
    if (typeof handlers !== "object" || handlers === null)
      throw new InvalidInformerOptionError("handlers", "must be an object with add, update and/or delete");
    const name = options.name ?? `handler-${++this.#handlerNumber}`;
    const resyncPeriodMs = count("resyncPeriodMs", options.resyncPeriodMs ?? this.#options.resyncPeriodMs);
    const queue = new HandlerQueue<T>({
      name,
      handlers,
      maxPending: this.#options.maxPendingNotifications,
      store: this.#store,
      onError: (err) => this.#report(err, { during: "handler", willRetry: false, handler: name }),
      onOverflow: (dropped) => this.#emit("handlerOverflow", { handler: name, dropped }),
      onSynced: () => this.#checkSynced(),
    });
    const registration: Registration<T> = {
      name,
      queue,
      resyncPeriodMs,
      timer: undefined,
      get hasSynced() {
        return queue.synced;
      },
      remove: () => this.#removeHandler(registration),
    };
    this.#handlers.add(registration);
    if (this.#storeSynced)
      queue.enqueue([{ type: "adds", objs: this.#store.list(), isInInitialList: true }, SYNCED]);
    if (resyncPeriodMs > 0)
      registration.timer = setInterval(() => this.#resync(registration), resyncPeriodMs);
    return registration;
  }

  /** Starts listing and watching. Aborting `signal` stops the informer like stop(). */
  start(signal?: AbortSignal): this {
    if (this.#phase === "stopped")
      throw new InformerStoppedError("a stopped informer cannot be started again");
    if (this.#phase === "running") return this;
    this.#phase = "running";
    if (signal !== undefined) {
      const onAbort = () => void this.stop();
      signal.addEventListener("abort", onAbort, { once: true });
      this.#detachSignal = () => signal.removeEventListener("abort", onAbort);
    }
    this.#run = this.#reflector.run(this.#abort.signal);
    // Resync timers run only while the informer does, so an informer never started holds no timer.
    for (const h of this.#handlers) this.#startResync(h);
    if (signal?.aborted) void this.stop();
    return this;
  }

  /**
   * Stops: closes the watch, cancels timers and handler deliveries, rejects pending waits with
   * InformerStoppedError. Resolves when nothing of the informer runs any more.
   */
  async stop(): Promise<void> {
    if (this.#phase !== "stopped") {
      this.#phase = "stopped";
      this.#detachSignal();
      this.#abort.abort();
      for (const h of this.#handlers) this.#closeHandler(h);
      const err = new InformerStoppedError();
      this.#waiters.rejectAll(err);
      await this.#run;
      this.#listSpans.end();
      this.#emit("stopped");
      return;
    }
    await this.#run;
  }

  /** Resolves once synced; rejects on stop (InformerStoppedError), timeout (SyncTimeoutError) or abort. */
  waitForSync(options: WaitForSyncOptions = {}): Promise<void> {
    if (this.#synced) return Promise.resolve();
    if (this.#phase === "stopped") return Promise.reject(new InformerStoppedError());
    return this.#waiters.wait(options);
  }

  // ---- the reflector's sink ----

  #replace(items: readonly T[], resourceVersion: string, initial: boolean): void {
    const diff = this.#store.replace(items, (err) =>
      this.#report(err, { during: "index", willRetry: false }),
    );
    this.#lastSyncResourceVersion = resourceVersion;
    // Deletes first: an object replaced under the same key (new uid) ends before its successor starts.
    const batch: Notification<T>[] = [];
    for (const obj of diff.deleted) batch.push({ type: "delete", obj });
    batch.push({ type: "adds", objs: diff.added, isInInitialList: initial });
    for (const { oldObj, newObj } of diff.updated) batch.push({ type: "update", oldObj, newObj });
    for (const h of this.#handlers) {
      const unsynced = initial && !h.queue.synced;
      h.queue.enqueue(batch);
      if (unsynced) h.queue.enqueueOne(SYNCED);
    }
    this.#emit("replace", {
      initial,
      resourceVersion,
      added: diff.added.length,
      updated: diff.updated.length,
      deleted: diff.deleted.length,
      unchanged: diff.unchanged,
      storeSize: this.#store.size,
    });
    if (initial) {
      this.#storeSynced = true;
      this.#checkSynced();
    }
  }

  #apply(type: "ADDED" | "MODIFIED" | "DELETED", obj: T, resourceVersion: string | undefined): boolean {
    let n: Notification<T> | undefined;
    try {
      n = this.#storeChange(type, obj, resourceVersion);
    } catch (err) {
      this.#report(err, { during: "index", willRetry: false });
    }
    if (resourceVersion !== undefined) this.#lastSyncResourceVersion = resourceVersion;
    let backlog = 0;
    if (n !== undefined) for (const h of this.#handlers) backlog = Math.max(backlog, h.queue.enqueueOne(n));
    this.#stats.events[type]++;
    // Per event: the payload is built only when someone listens.
    if (this.listenerCount("event") > 0)
      this.#emitOnly("event", { type, resourceVersion, storeSize: this.#store.size });
    return backlog >= this.#yieldAt;
  }

  /** Changes the store for one watch event; the notification for handlers, if any. */
  #storeChange(
    type: "ADDED" | "MODIFIED" | "DELETED",
    obj: T,
    resourceVersion: string | undefined,
  ): Notification<T> | undefined {
    if (type === "DELETED") {
      // A deletion of something never cached has nothing to tell handlers.
      return this.#store.delete(this.#store.keyOf(obj)) === undefined ? undefined : { type: "delete", obj };
    }
    const current = this.#store.stored(obj);
    // The same version again (a replayed event) changes nothing.
    if (
      current !== undefined &&
      resourceVersion !== undefined &&
      resourceVersionOf(current) === resourceVersion
    )
      return undefined;
    this.#store.put(obj, current);
    return current === undefined
      ? { type: "add", obj, isInInitialList: false }
      : { type: "update", oldObj: current, newObj: obj };
  }

  #bookmark(resourceVersion: string): void {
    this.#lastSyncResourceVersion = resourceVersion;
    this.#emit("event", { type: "BOOKMARK", resourceVersion, storeSize: this.#store.size });
  }

  // ---- handlers, sync, events ----

  #startResync(h: Registration<T>): void {
    if (h.resyncPeriodMs > 0 && h.timer === undefined)
      h.timer = setInterval(() => this.#resync(h), h.resyncPeriodMs);
  }

  #resync(h: Registration<T>): void {
    // A handler still busy with the previous round (or not yet synced) skips this one.
    if (!this.#storeSynced || !h.queue.synced || h.queue.resyncPending) return;
    this.#stats.resyncs++;
    h.queue.enqueue(
      this.#store
        .list()
        .map((obj): Notification<T> => ({ type: "update", oldObj: obj, newObj: obj, resync: true })),
    );
  }

  #removeHandler(h: Registration<T>): void {
    if (!this.#handlers.delete(h)) return;
    this.#closeHandler(h);
    this.#checkSynced();
  }

  #closeHandler(h: Registration<T>): void {
    clearInterval(h.timer);
    h.timer = undefined;
    h.queue.close();
  }

  #checkSynced(): void {
    if (this.#synced || !this.#storeSynced || this.#phase === "stopped") return;
    for (const h of this.#handlers) if (!h.queue.synced) return;
    this.#synced = true;
    this.#waiters.resolveAll();
    this.#emit("synced");
  }

  #report(err: unknown, context: ErrorContext): void {
    this.#emit("error", err instanceof Error ? err : new Error(String(err)), context);
  }

  /** Emits to listeners; a listener that throws is reported on `error` and does not disturb the informer. */
  #emit<K extends keyof InformerEvents>(name: K, ...args: InformerEvents[K]): void {
    this.#stats.count(name, args);
    this.#emitOnly(name, ...args);
  }

  /** {@link #emit} without counting (for counts kept by the caller). */
  #emitOnly<K extends keyof InformerEvents>(name: K, ...args: InformerEvents[K]): void {
    try {
      (this.emit as (event: K, ...a: InformerEvents[K]) => boolean)(name, ...args);
    } catch (err) {
      if (name === "error") return;
      try {
        this.emit("error", err instanceof Error ? err : new Error(String(err)), {
          during: "listener",
          willRetry: false,
        });
      } catch {
        // An error listener that throws has nobody left to report to.
      }
    }
  }
}

/**
 * A resource client in an informer's encoding: the one asked for, else protobuf when the client has a
 * protobuf codec and its encoding was not chosen. Protobuf is asked for with JSON as the fallback, so a kind or a server without
 * it answers in JSON; against kube-apiserver it takes about a fifth less of the server's CPU per list
 * (docs/performance.md). Shared with the factory, which applies it before `metadataOnly()`.
 */
export function inInformerEncoding<T extends KubernetesObject, L extends KubernetesList<T>>(
  resource: ResourceClient<T, L>,
  encoding: Encoding | undefined,
): ResourceClient<T, L> {
  if (encoding !== undefined) return resource.withEncoding(encoding);
  return resource.chosenEncoding === undefined && resource.protobufAvailable
    ? resource.withEncoding("protobuf")
    : resource;
}

/** The reader in the informer's encoding; only a ResourceClient can switch (before `metadataOnly()`). */
function withEncoding<T>(
  reader: ReadClient<T, { items: T[] }>,
  encoding: Encoding | undefined,
): ReadClient<T, { items: T[] }> {
  if (reader instanceof ResourceClient) return inInformerEncoding(reader, encoding) as typeof reader;
  if (encoding === undefined) return reader;
  throw new InvalidInformerOptionError(
    "encoding",
    "applies to a ResourceClient; for metadata only, call withEncoding() before metadataOnly()",
  );
}

/** The selection alone: the client must not see the informer's other options as request options. */
function selectionOf(scope: InformerSelection): InformerSelection {
  const { namespace, allNamespaces, labelSelector, fieldSelector } = scope;
  return { namespace, allNamespaces, labelSelector, fieldSelector };
}
