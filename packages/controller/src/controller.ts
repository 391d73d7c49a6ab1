/**
 * Controller: a primary resource, the resources it owns and other watched resources, feeding keys
 * into a {@link WorkQueue} that `concurrency` workers drain through the reconcile function.
 *
 * Contract:
 * - Every event of the primary resource, of an owned object (through its controller owner
 *   reference naming the primary's group and kind) and of a watched resource (through the user's
 *   mapping) that passes the declared predicates enqueues the matching primary keys.
 * - A key is reconciled by one worker at a time; the reconciler sees the informer cache's state.
 * - Reconcile's action (or the error policy's, for a throw) decides the requeue.
 * - `start()` resolves once every informer it uses has synced and the workers run; `stop()` stops
 *   taking work, lets in-flight reconciles finish until the deadline, then aborts their signal.
 *   A stopped controller can be started again (a new leadership term reconciles everything anew).
 * - Informers come from the factory it is given (a Manager gives its one factory to every
 *   controller it creates); the controller never stops them — the factory's owner does.
 * - Gates ({@link WorkGate}, e.g. the Manager's leadership): when a worker takes a key, every gate
 *   is asked synchronously; a key some gate does not admit is not reconciled now but kept (parked)
 *   and queued again on the next `start()` or `readmit()`. A reconcile runs with a signal that
 *   aborts when the controller's own does or any gate's signal for the key does, and its `check()`
 *   asks the gates again synchronously before each runtime write.
 */
import type { Kube } from "@kubesdk/client";
import type { KubernetesObject } from "@kubesdk/models";
import { traced } from "@kubesdk/transport/internal";
import { type Clock, systemClock, type Timer } from "./clock.js";
import { ControllerError, checkNumber } from "./errors.js";
import {
  type AnyResourceClient,
  type Informer,
  type InformerFactory,
  informerFor,
} from "./informer-source.js";
import { linkedSignal } from "./linked-signal.js";
import type { ControllerMetrics, ReconcileResult } from "./metrics-api.js";
import type { Predicate } from "./predicates.js";
import type { RateLimiter } from "./rate-limiter.js";
import {
  Action,
  consoleLogger,
  type ErrorPolicy,
  type Logger,
  type ReconcileAction,
  type Reconciler,
  splitKey,
} from "./reconcile.js";
import { Sharding, type ShardingOptions } from "./sharding.js";
import { type EventSource, type KeyMapper, ownerKeys, ownKey, type Wiring, wire } from "./watches.js";
import type { WorkGate } from "./work-gate.js";
import { WorkQueue } from "./work-queue.js";

/** The metrics result of a reconcile that did not throw, by the action it returned. */
const RESULT_OF: Record<ReconcileAction["type"], ReconcileResult> = {
  done: "success",
  requeueAfter: "requeue_after",
  requeueRateLimited: "requeue",
};

/** An owned resource: its objects map to the primary named by their controller owner reference. */
export interface OwnsDeclaration<O extends KubernetesObject = KubernetesObject> {
  readonly resource: AnyResourceClient<O>;
  readonly predicates?: readonly Predicate<O>[];
}

/** Another watched resource: `map` turns its objects into primary keys ("ns/name" or "name"). */
export interface WatchDeclaration<O extends KubernetesObject = KubernetesObject> {
  readonly resource: AnyResourceClient<O>;
  readonly map: KeyMapper<O>;
  readonly predicates?: readonly Predicate<O>[];
}

export interface ControllerOptions<T extends KubernetesObject> {
  /** Names the controller in logs and metrics. */
  readonly name: string;
  /** The primary resource (`kube.resource(…)` or `kube.custom<T>(…)`). */
  readonly resource: AnyResourceClient<T>;
  /** Watch only this namespace (default: every namespace). */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly predicates?: readonly Predicate<T>[];
  // biome-ignore lint/suspicious/noExplicitAny: owned resources are of any kind.
  readonly owns?: readonly OwnsDeclaration<any>[];
  // biome-ignore lint/suspicious/noExplicitAny: watched resources are of any kind.
  readonly watches?: readonly WatchDeclaration<any>[];
  readonly reconcile: Reconciler<T>;
  /** Default: log and requeue rate-limited. */
  readonly errorPolicy?: ErrorPolicy<T>;
  /** Workers reconciling different keys at once (default 1). */
  readonly concurrency?: number;
  /** Reconcile a key this many ms after its first event; later events of the key meanwhile join that reconcile (default 0: at once). */
  readonly debounceMs?: number;
  /** Every this many ms every cached primary object is reconciled (default 0: never). */
  readonly resyncPeriodMs?: number;
  /** The factory informers come from (`manager.controller()` passes the manager's). */
  readonly informers: InformerFactory;
  /** Permissions checked when a worker takes a key (`manager.controller()` adds leadership). */
  readonly gates?: readonly WorkGate[];
  readonly clock?: Clock;
  /** A fresh limiter per start (default: client-go's controller limiter). */
  readonly rateLimiter?: () => RateLimiter<string>;
  readonly metrics?: ControllerMetrics;
  readonly logger?: Logger;
  /**
   * Run as one of several replicas that share the keys (see {@link Sharding}); keys another replica
   * owns are dropped from this one's queue. Default: this replica reconciles every key.
   */
  readonly sharding?: ShardingOptions;
  /** The client sharding writes its member Lease with (`manager.controller()` passes the manager's). */
  readonly kube?: Kube;
}

interface Run {
  readonly queue: WorkQueue<string>;
  readonly abort: AbortController;
  readonly wirings: Wiring[];
  workers: Promise<void>[];
  resync: Timer | undefined;
}

export class Controller<T extends KubernetesObject = KubernetesObject> {
  readonly name: string;
  readonly #o: ControllerOptions<T>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #factory: InformerFactory;
  readonly #lastKnown = new Map<string, T>();
  readonly #gates: readonly WorkGate[];
  /** Keys a gate turned away, queued again by the next start() or readmit(). */
  readonly #parked = new Set<string>();
  #primary: Informer<T> | undefined;
  #informers: Informer<KubernetesObject>[] = [];
  #others: Informer<KubernetesObject>[] = [];
  #run: Run | undefined;
  #synced = false;
  readonly #sharding: Sharding | undefined;

  constructor(options: ControllerOptions<T>) {
    checkNumber("concurrency", options.concurrency ?? 1, 1);
    checkNumber("debounceMs", options.debounceMs ?? 0);
    checkNumber("resyncPeriodMs", options.resyncPeriodMs ?? 0);
    this.name = options.name;
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? consoleLogger;
    this.#factory = options.informers;
    this.#gates = options.gates ?? [];
    if (options.sharding !== undefined && options.kube === undefined)
      throw new ControllerError(
        "INVALID_DECLARATION",
        "sharding needs `kube` (manager.controller() passes it)",
      );
    this.#sharding =
      options.sharding &&
      new Sharding({
        ...options.sharding,
        kube: options.kube as Kube,
        clock: this.#clock,
        logger: this.#logger,
      });
  }

  /** The gate sharing keys with the other replicas, when `sharding` was given. */
  get sharding(): Sharding | undefined {
    return this.#sharding;
  }

  /** True while started and every informer it uses has synced. */
  get synced(): boolean {
    return this.#synced && this.#informers.every((i) => i.hasSynced);
  }

  get running(): boolean {
    return this.#run !== undefined;
  }

  /** The primary informer's cache (available after the first start). */
  get primary(): Informer<T> | undefined {
    return this.#primary;
  }

  /** True once every informer the controller uses has synced (also while stopped). */
  get informersSynced(): boolean {
    return this.#informers.length > 0 && this.#informers.every((i) => i.hasSynced);
  }

  /**
   * Creates the informers this controller uses (idempotent; start() does it too), so a manager can
   * warm the caches before this process leads.
   */
  prepare(): void {
    if (this.#primary !== undefined) return;
    const o = this.#o;
    const scope = {
      ...(o.namespace !== undefined ? { namespace: o.namespace } : {}),
      ...(o.labelSelector !== undefined ? { labelSelector: o.labelSelector } : {}),
    };
    this.#primary = informerFor(this.#factory, o.resource, scope);
    const others = [...(o.owns ?? []), ...(o.watches ?? [])];
    const ownerScope = o.namespace !== undefined ? { namespace: o.namespace } : {};
    this.#others = others.map((d) => informerFor(this.#factory, d.resource, ownerScope));
    this.#informers = [this.#primary as unknown as Informer<KubernetesObject>, ...this.#others];
  }

  /** Keys waiting in the queue (0 when stopped). */
  get queueLength(): number {
    return this.#run?.queue.length ?? 0;
  }

  /** Starts watching and reconciling; resolves once synced and the workers run. */
  async start(): Promise<void> {
    if (this.#run !== undefined) throw new ControllerError("ALREADY_STARTED", `${this.name} is running`);
    const queue = new WorkQueue<string>({
      clock: this.#clock,
      ...(this.#o.rateLimiter ? { rateLimiter: this.#o.rateLimiter() } : {}),
      ...(this.#o.metrics ? { metrics: this.#o.metrics.queue(this.name) } : {}),
    });
    const run: Run = { queue, abort: new AbortController(), wirings: [], workers: [], resync: undefined };
    this.#run = run;
    const debounce = this.#o.debounceMs ?? 0;
    const enqueue = (key: string) => (debounce > 0 ? queue.addAfter(key, debounce) : queue.add(key));
    this.#wireAll(run, enqueue);
    this.#sharding?.start({
      keys: () => this.#primary?.store.keys() ?? [],
      enqueue: (key) => queue.add(key),
    });
    this.#factory.start();
    try {
      await Promise.all(this.#informers.map((i) => i.waitForSync({ signal: run.abort.signal })));
    } catch (err) {
      if (run.abort.signal.aborted) return;
      throw err;
    }
    if (this.#run !== run) return;
    this.#synced = true;
    this.readmit();
    const concurrency = this.#o.concurrency ?? 1;
    run.workers = Array.from({ length: concurrency }, () => this.#worker(run));
    this.#scheduleResync(run);
  }

  /**
   * Stops taking work; in-flight reconciles may finish until `deadlineMs` (default 10 s) passes,
   * then their signal is aborted. Resolves true if every reconcile finished in time.
   */
  async stop(deadlineMs = 10_000): Promise<boolean> {
    const run = this.#run;
    if (run === undefined) return true;
    this.#run = undefined;
    this.#synced = false;
    for (const w of run.wirings) w.remove();
    run.resync?.cancel();
    let timer: Timer | undefined;
    const deadline = new Promise<false>((resolve) => {
      timer = this.#clock.setTimer(() => resolve(false), deadlineMs);
    });
    const drained = run.queue.shutDownWithDrain().then(() => true as const);
    const inTime = await Promise.race([drained, deadline]);
    timer?.cancel();
    run.abort.abort(new ControllerError("SHUT_DOWN", `${this.name} stopped`));
    // Only now: reconciles finishing in the drain still hold their keys.
    await this.#sharding?.stop();
    if (!inTime)
      this.#logger.error("reconciles still running at the shutdown deadline", { controller: this.name });
    return inTime;
  }

  /** Queues again every key a gate turned away (while running; else the next start() does). */
  readmit(): void {
    const run = this.#run;
    if (run === undefined) return;
    const keys = [...this.#parked];
    this.#parked.clear();
    for (const key of keys) run.queue.add(key);
  }

  /** Keys a gate turned away, waiting for readmit() or the next start(). */
  get parked(): number {
    return this.#parked.size;
  }

  /** Enqueues a key by hand (ignored while stopped). */
  enqueue(key: string): void {
    this.#run?.queue.add(key);
  }

  #wireAll(run: Run, enqueue: (key: string) => void): void {
    this.prepare();
    const o = this.#o;
    const t = o.resource.target;
    const apiVersion = t.group === "" ? t.version : `${t.group}/${t.version}`;
    const add = <O extends KubernetesObject>(informer: Informer<O>, source: EventSource<O>, what: string) => {
      run.wirings.push(wire(informer, source, enqueue, `${this.name}/${what}`));
    };
    const primary = this.#primary as Informer<T>;
    const onDelete = (obj: T) => this.#lastKnown.set(ownKey(obj)[0] as string, obj);
    add(primary, { map: ownKey, predicates: o.predicates ?? [], onDelete }, "primary");
    const owns = o.owns ?? [];
    owns.forEach((d, i) => {
      const map = ownerKeys(apiVersion, t.kind ?? "", t.namespaced);
      add(
        this.#others[i] as Informer<KubernetesObject>,
        { map, predicates: d.predicates ?? [] },
        `owns-${d.resource.target.plural}`,
      );
    });
    (o.watches ?? []).forEach((d, i) => {
      const informer = this.#others[owns.length + i] as Informer<KubernetesObject>;
      add(informer, { map: d.map, predicates: d.predicates ?? [] }, `watches-${d.resource.target.plural}`);
    });
  }

  #scheduleResync(run: Run): void {
    const period = this.#o.resyncPeriodMs ?? 0;
    if (period <= 0) return;
    run.resync = this.#clock.setTimer(() => {
      if (this.#run !== run) return;
      for (const key of this.#primary?.store.keys() ?? []) run.queue.add(key);
      this.#scheduleResync(run);
    }, period);
  }

  async #worker(run: Run): Promise<void> {
    // stop() ends the run: keys still queued then are not reconciled (the queue would hand them out).
    while (!run.queue.shuttingDown) {
      const key = await run.queue.get();
      if (key === undefined) return;
      // Checked synchronously as the key is taken; another replica owns a key sharding does not admit.
      if (this.#sharding !== undefined && !this.#sharding.admits(key)) {
        this.#sharding.dropped(key);
        run.queue.done(key);
        continue;
      }
      // A key a gate (leadership) turns away now is kept for the next term or readmit().
      if (!this.#gates.every((g) => g.admits(key))) {
        this.#parked.add(key);
        run.queue.done(key);
        continue;
      }
      try {
        await this.#reconcileKey(run, key);
      } catch (err) {
        // Only a throwing error policy or metrics backend gets here; the worker carries on.
        this.#logger.error("handling a reconcile result failed", {
          controller: this.name,
          key,
          error: String(err),
        });
        run.queue.addRateLimited(key);
      } finally {
        run.queue.done(key);
      }
    }
  }

  async #reconcileKey(run: Run, key: string): Promise<void> {
    const object = this.#primary?.store.get(key);
    const lastKnown = object === undefined ? this.#lastKnown.get(key) : undefined;
    if (object !== undefined) this.#lastKnown.delete(key);
    const gates: readonly WorkGate[] = this.#sharding ? [...this.#gates, this.#sharding] : this.#gates;
    const linked =
      gates.length === 0 ? undefined : linkedSignal([run.abort.signal, ...gates.map((g) => g.signal(key))]);
    const signal = linked?.signal ?? run.abort.signal;
    const request = {
      key,
      ...splitKey(key),
      object,
      lastKnown,
      retries: run.queue.retries(key),
      signal,
      check: (): void => {
        for (const g of gates)
          if (!g.admits(key))
            throw (
              g.signal(key).reason ?? new ControllerError("LEADERSHIP_LOST", `${key} is no longer admitted`)
            );
        signal.throwIfAborted();
      },
    };
    const started = this.#clock.now();
    let action: ReconcileAction;
    let failed = false;
    try {
      // A span per reconcile when @opentelemetry/api is installed (its requests become children).
      const attributes = { "kubesdk.controller": this.name, "kubesdk.reconcile.key": key };
      action =
        (await traced("reconcile", attributes, async () => this.#o.reconcile(request))) ?? Action.done();
    } catch (err) {
      failed = true;
      this.#logger.error("reconcile failed", { controller: this.name, key, error: String(err) });
      action = this.#o.errorPolicy?.(err, request) ?? Action.requeueRateLimited();
    } finally {
      linked?.dispose();
    }
    const result = failed ? "error" : RESULT_OF[action.type];
    this.#o.metrics?.reconciled(this.name, result, this.#clock.now() - started);
    if (action.type !== "requeueRateLimited") run.queue.forget(key);
    if (action.type === "done" && object === undefined) this.#lastKnown.delete(key);
    if (action.type === "requeueAfter") run.queue.addAfter(key, action.ms);
    else if (action.type === "requeueRateLimited") run.queue.addRateLimited(key);
  }
}
