/**
 * Prometheus metrics (prom-client) under controller-runtime's names: work queue depth, adds, queue
 * latency, work duration and retries per queue; reconcile totals by result, errors and duration
 * per controller; and leader status. Everything lives in the instance's own `registry`.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ControllerMetrics, ReconcileResult } from "./metrics-api.js";
import type { WorkQueueMetrics } from "./work-queue.js";

const SECONDS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60];

export class PrometheusMetrics implements ControllerMetrics {
  readonly registry: Registry;
  readonly #depth: Gauge<"name">;
  readonly #adds: Counter<"name">;
  readonly #latency: Histogram<"name">;
  readonly #work: Histogram<"name">;
  readonly #retries: Counter<"name">;
  readonly #reconciles: Counter<"controller" | "result">;
  readonly #errors: Counter<"controller">;
  readonly #reconcileTime: Histogram<"controller">;
  readonly #leader: Gauge<"name">;

  constructor(registry: Registry = new Registry()) {
    this.registry = registry;
    const registers = [registry];
    this.#depth = new Gauge({
      name: "workqueue_depth",
      help: "Keys waiting in the work queue",
      labelNames: ["name"],
      registers,
    });
    this.#adds = new Counter({
      name: "workqueue_adds_total",
      help: "Adds to the work queue",
      labelNames: ["name"],
      registers,
    });
    this.#latency = new Histogram({
      name: "workqueue_queue_duration_seconds",
      help: "Time a key waits in the work queue before a worker takes it",
      labelNames: ["name"],
      buckets: SECONDS,
      registers,
    });
    this.#work = new Histogram({
      name: "workqueue_work_duration_seconds",
      help: "Time a worker spends on a key",
      labelNames: ["name"],
      buckets: SECONDS,
      registers,
    });
    this.#retries = new Counter({
      name: "workqueue_retries_total",
      help: "Rate-limited re-adds",
      labelNames: ["name"],
      registers,
    });
    this.#reconciles = new Counter({
      name: "controller_runtime_reconcile_total",
      help: "Reconciles by result",
      labelNames: ["controller", "result"],
      registers,
    });
    this.#errors = new Counter({
      name: "controller_runtime_reconcile_errors_total",
      help: "Reconciles that failed",
      labelNames: ["controller"],
      registers,
    });
    this.#reconcileTime = new Histogram({
      name: "controller_runtime_reconcile_time_seconds",
      help: "Duration of reconciles",
      labelNames: ["controller"],
      buckets: SECONDS,
      registers,
    });
    this.#leader = new Gauge({
      name: "leader_election_master_status",
      help: "1 while this process leads, else 0",
      labelNames: ["name"],
      registers,
    });
  }

  queue(name: string): WorkQueueMetrics<string> {
    return {
      added: () => this.#adds.inc({ name }),
      depth: (n) => this.#depth.set({ name }, n),
      handedOut: (_k, ms) => this.#latency.observe({ name }, ms / 1000),
      finished: (_k, ms) => this.#work.observe({ name }, ms / 1000),
      retried: () => this.#retries.inc({ name }),
    };
  }

  reconciled(controller: string, result: ReconcileResult, ms: number): void {
    this.#reconciles.inc({ controller, result });
    if (result === "error") this.#errors.inc({ controller });
    this.#reconcileTime.observe({ controller }, ms / 1000);
  }

  leader(name: string, leading: boolean): void {
    this.#leader.set({ name }, leading ? 1 : 0);
  }
}
