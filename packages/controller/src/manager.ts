/**
 * Manager: owns one client's controller wiring — one informer factory, the controllers it creates
 * with `manager.controller({...})`, and optionally leader election fencing their work.
 *
 * Contract:
 * - `controller(options)` creates a controller on the manager's informer factory, clock and logger,
 *   gated by the manager's leadership when leader election is on, and registers it (before start()).
 * - `start()` creates every controller's informers (so followers keep warm caches and report
 *   ready), starts the factory, and starts the controllers — at once without leader election,
 *   else each time this process becomes leader.
 * - With leader election, a worker starts a reconcile only while leadership is fresh (the last
 *   successful renewal was sent less than `renewDeadlineMs` ago, checked synchronously when it
 *   takes the key); the moment freshness lapses or leadership is lost, every running reconcile's
 *   signal is aborted, runtime writes given the request as fence refuse to go out, and the
 *   controllers stop. After a pause longer than the renew deadline no work starts before a new
 *   successful write of the Lease.
 * - `stop()` (graceful shutdown) stops taking work, lets in-flight reconciles finish up to
 *   `shutdownDeadlineMs` (leadership is still renewed meanwhile), then releases the Lease and stops
 *   the informer factory.
 * - `handleSignals()` makes SIGTERM and SIGINT call `stop()` once.
 * - `webhooks(options)` gives the manager one webhook server: it starts before the controllers
 *   (on every replica, leader or not: the API server calls any of them) and stops after them.
 */
import type { Kube } from "@kubesdk/client";
import type { KubernetesObject } from "@kubesdk/models";
import type { Clock } from "./clock.js";
import { Controller, type ControllerOptions } from "./controller.js";
import { ControllerError } from "./errors.js";
import { InformerFactory } from "./informer-source.js";
import { type LeaderElectionOptions, LeaderElector } from "./leader-election.js";
import { leadershipGate } from "./leadership-gate.js";
import { consoleLogger, type Logger } from "./reconcile.js";
import { WebhookServer, type WebhookServerOptions } from "./webhooks/webhook-server.js";
import type { WorkGate } from "./work-gate.js";

// biome-ignore lint/suspicious/noExplicitAny: a manager runs controllers of any object type.
type AnyController = Controller<any>;

export interface ManagerOptions {
  readonly kube: Kube;
  /** Run controllers only while holding this Lease (default: always run). */
  readonly leaderElection?: Omit<LeaderElectionOptions, "kube" | "clock" | "logger">;
  /** Time in-flight reconciles get on graceful shutdown (default 10 s). */
  readonly shutdownDeadlineMs?: number;
  /**
   * The manager's one informer factory (`new InformerFactory(kube)`, given to share its watches
   * with the rest of the program); default: a new one on `kube`. The manager stops it in `stop()`.
   */
  readonly informers?: InformerFactory;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Told about leadership changes (metrics). */
  readonly onLeaderChange?: (leading: boolean) => void;
}

/** What `manager.controller()` takes: a controller's options but the wiring the manager owns. */
export type ManagedControllerOptions<T extends KubernetesObject> = Omit<
  ControllerOptions<T>,
  "informers" | "clock" | "logger"
> & { readonly clock?: Clock; readonly logger?: Logger };

export interface ManagerStatus {
  readonly healthy: boolean;
  /** Every informer synced. */
  readonly ready: boolean;
  /** "leader", "follower", or "disabled" without leader election. */
  readonly leadership: "leader" | "follower" | "disabled";
  readonly controllers: readonly { name: string; running: boolean; synced: boolean }[];
}

export class Manager {
  readonly #o: ManagerOptions;
  readonly #controllers: AnyController[] = [];
  readonly #factory: InformerFactory;
  readonly #logger: Logger;
  readonly #gates: readonly WorkGate[];
  readonly elector: LeaderElector | undefined;
  #transition: Promise<void> = Promise.resolve();
  #state: "new" | "running" | "stopping" | "stopped" = "new";
  #stopped: Promise<void> | undefined;
  #webhooks: WebhookServer | undefined;

  constructor(options: ManagerOptions) {
    this.#o = options;
    this.#factory = options.informers ?? new InformerFactory(options.kube);
    this.#logger = options.logger ?? consoleLogger;
    if (options.leaderElection)
      this.elector = new LeaderElector({
        ...options.leaderElection,
        kube: options.kube,
        ...(options.clock ? { clock: options.clock } : {}),
        logger: this.#logger,
      });
    this.#gates = this.elector === undefined ? [] : [leadershipGate(this.elector)];
  }

  /** The client the manager's controllers and elector use. */
  get kube(): Kube {
    return this.#o.kube;
  }

  /** The manager's informer factory (every controller of this manager watches through it). */
  get informers(): InformerFactory {
    return this.#factory;
  }

  /**
   * Creates a controller wired to this manager (its informer factory, clock, logger and, with
   * leader election, its leadership gate) and registers it. Call before start().
   */
  controller<T extends KubernetesObject>(options: ManagedControllerOptions<T>): Controller<T> {
    if (this.#state !== "new")
      throw new ControllerError("ALREADY_STARTED", "create controllers before start()");
    const controller = new Controller<T>({
      ...options,
      informers: this.#factory,
      kube: this.#o.kube,
      gates: [...this.#gates, ...(options.gates ?? [])],
      logger: options.logger ?? this.#logger,
      ...((options.clock ?? this.#o.clock) ? { clock: options.clock ?? this.#o.clock } : {}),
    });
    this.#controllers.push(controller);
    return controller;
  }

  /**
   * The manager's webhook server, created by the first call (which needs `options`); register
   * handlers on it before start(). Later calls return the same server. start() starts it before
   * the controllers, unless the program started it itself: do that when the controllers need it
   * registered first (the CRD they watch converts through it), since start() waits for their sync.
   */
  webhooks(options?: WebhookServerOptions): WebhookServer {
    if (this.#webhooks !== undefined) {
      if (options !== undefined)
        throw new ControllerError("INVALID_OPTION", "the manager's webhook server already exists");
      return this.#webhooks;
    }
    if (options === undefined)
      throw new ControllerError("INVALID_OPTION", "the first manager.webhooks() call needs its options");
    if (this.#state !== "new")
      throw new ControllerError("ALREADY_STARTED", "create the webhook server before start()");
    this.#webhooks = new WebhookServer({ logger: this.#logger, ...options });
    return this.#webhooks;
  }

  get controllers(): readonly AnyController[] {
    return this.#controllers;
  }

  status(): ManagerStatus {
    const controllers = this.#controllers.map((c) => ({
      name: c.name,
      running: c.running,
      synced: c.informersSynced,
    }));
    return {
      healthy: this.#state === "running",
      ready: this.#state === "running" && controllers.every((c) => c.synced),
      leadership: this.elector === undefined ? "disabled" : this.elector.isLeader ? "leader" : "follower",
      controllers,
    };
  }

  async start(): Promise<void> {
    if (this.#state !== "new") throw new ControllerError("ALREADY_STARTED", "the manager was started");
    this.#state = "running";
    // Started already when the program had to register it (a CRD converting through it) first.
    if (this.#webhooks?.started === false) await this.#webhooks.start();
    for (const c of this.#controllers) c.prepare();
    this.#factory.start();
    if (this.elector === undefined) {
      await this.#startControllers();
      return;
    }
    this.elector.start({
      onStartedLeading: () => {
        this.#o.onLeaderChange?.(true);
        this.#transition = this.#transition.then(() => this.#startControllers());
      },
      onStoppedLeading: () => {
        this.#o.onLeaderChange?.(false);
        // The term's signal is already aborted, so nothing in flight may write any more: no grace.
        // At once, not after a start still in progress: stop() also aborts a start waiting for sync.
        const stopping = this.#stopControllers(0);
        this.#transition = this.#transition.then(() => stopping);
      },
    });
  }

  /** Graceful shutdown (idempotent). */
  stop(): Promise<void> {
    this.#stopped ??= this.#shutdown();
    return this.#stopped;
  }

  /** SIGTERM/SIGINT → stop(); returns a function that removes the listeners. */
  handleSignals(onStopped: () => void = () => {}): () => void {
    const handler = () => void this.stop().then(onStopped);
    process.once("SIGTERM", handler);
    process.once("SIGINT", handler);
    return () => {
      process.off("SIGTERM", handler);
      process.off("SIGINT", handler);
    };
  }

  async #shutdown(): Promise<void> {
    if (this.#state === "new") this.#state = "stopped";
    if (this.#state !== "running") return;
    this.#state = "stopping";
    // Stop taking work at once; a start still queued sees the state and does nothing.
    const stopping = this.#stopControllers(this.#o.shutdownDeadlineMs ?? 10_000);
    await this.#transition;
    await stopping;
    await this.elector?.stop();
    await this.#transition;
    await this.#stopControllers(0);
    await this.#factory.stop();
    await this.#webhooks?.stop();
    this.#state = "stopped";
  }

  async #startControllers(): Promise<void> {
    if (this.#state !== "running") return;
    if (this.elector !== undefined && !this.elector.isLeader) return;
    await Promise.all(
      this.#controllers.map((c) =>
        c
          .start()
          .catch((err) =>
            this.#logger.error("controller failed to start", { controller: c.name, error: String(err) }),
          ),
      ),
    );
  }

  async #stopControllers(deadlineMs: number): Promise<void> {
    await Promise.all(this.#controllers.map((c) => c.stop(deadlineMs)));
  }
}
