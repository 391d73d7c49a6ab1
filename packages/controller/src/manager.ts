/**
 * Manager: runs controllers on one client, optionally only while this process leads.
 *
 * Contract:
 * - `start()` creates every controller's informers (so followers keep warm caches and report
 *   ready), starts the shared factory, and starts the controllers — at once without leader
 *   election, else each time this process becomes leader.
 * - On losing leadership the controllers stop taking work at once; in-flight reconciles get
 *   `leaseDurationMs - renewDeadlineMs` to finish (the time before any other candidate can
 *   acquire the Lease), then their signal is aborted.
 * - `stop()` (graceful shutdown) stops taking work, lets in-flight reconciles finish up to
 *   `shutdownDeadlineMs`, then releases the Lease and stops the informers.
 * - `handleSignals()` makes SIGTERM and SIGINT call `stop()` once.
 */
import type { KubeClient } from "@kubesdk/client";
import type { Clock } from "./clock.js";
import type { Controller } from "./controller.js";
import { ControllerError } from "./errors.js";
import { type InformerFactory, sharedFactory, stopFactory } from "./informer-source.js";
import { type LeaderElectionOptions, LeaderElector } from "./leader-election.js";
import { consoleLogger, type Logger } from "./reconcile.js";

// biome-ignore lint/suspicious/noExplicitAny: a manager runs controllers of any object type.
type AnyController = Controller<any>;

export interface ManagerOptions {
  readonly kube: KubeClient;
  /** Run controllers only while holding this Lease (default: always run). */
  readonly leaderElection?: Omit<LeaderElectionOptions, "kube" | "clock" | "logger">;
  /** Time in-flight reconciles get on graceful shutdown (default 10 s). */
  readonly shutdownDeadlineMs?: number;
  /** The factory every controller of this manager uses (default: the client's shared one). */
  readonly informers?: InformerFactory;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Told about leadership changes (metrics). */
  readonly onLeaderChange?: (leading: boolean) => void;
}

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
  readonly elector: LeaderElector | undefined;
  #transition: Promise<void> = Promise.resolve();
  #state: "new" | "running" | "stopping" | "stopped" = "new";
  #stopped: Promise<void> | undefined;

  constructor(options: ManagerOptions) {
    this.#o = options;
    this.#factory = options.informers ?? sharedFactory(options.kube);
    this.#logger = options.logger ?? consoleLogger;
    if (options.leaderElection)
      this.elector = new LeaderElector({
        ...options.leaderElection,
        kube: options.kube,
        ...(options.clock ? { clock: options.clock } : {}),
        logger: this.#logger,
      });
  }

  /** The factory controllers of this manager should be given (`informers` option). */
  get informers(): InformerFactory {
    return this.#factory;
  }

  add<T extends AnyController>(controller: T): T {
    if (this.#state !== "new") throw new ControllerError("ALREADY_STARTED", "add controllers before start()");
    this.#controllers.push(controller);
    return controller;
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
    for (const c of this.#controllers) c.prepare();
    this.#factory.start();
    if (this.elector === undefined) {
      await this.#startControllers();
      return;
    }
    const { leaseDurationMs, renewDeadlineMs } = this.elector.options;
    this.elector.start({
      onStartedLeading: () => {
        this.#o.onLeaderChange?.(true);
        this.#transition = this.#transition.then(() => this.#startControllers());
      },
      onStoppedLeading: () => {
        this.#o.onLeaderChange?.(false);
        // At once, not after a start still in progress: stop() also aborts a start waiting for sync.
        const stopping = this.#stopControllers(leaseDurationMs - renewDeadlineMs);
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
    await stopFactory(this.#factory);
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
