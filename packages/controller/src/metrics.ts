/**
 * Prometheus metrics (prom-client) under controller-runtime's names: work queue depth, adds, queue
 * latency, work duration and retries per queue; reconcile totals by result, errors and duration
 * per controller; leader status; and webhook requests by path and code, their latency and those in
 * flight. Everything lives in the instance's own `registry`.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ControllerMetrics, ReconcileResult, WebhookMetrics } from "./metrics-api.js";
import type { WorkQueueMetrics } from "./work-queue.js";

const SECONDS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60];

export class PrometheusMetrics implements ControllerMetrics, WebhookMetrics {
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
  readonly #webhookRequests: Counter<"webhook" | "code">;
  readonly #webhookLatency: Histogram<"webhook">;
  readonly #webhookInFlight: Gauge<"webhook">;

  constructor(registry: Registry = new Registry()) {
    this.registry = registry;
    const registers = [registry];
    const metric = <L extends string>(name: string, help: string, labelNames: L[]) => ({
      name,
      help,
      labelNames,
      registers,
    });
    const timing = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Histogram({ ...metric(name, help, labelNames), buckets: SECONDS });
    this.#depth = new Gauge(metric("workqueue_depth", "Keys waiting in the work queue", ["name"]));
    this.#adds = new Counter(metric("workqueue_adds_total", "Adds to the work queue", ["name"]));
    this.#latency = timing(
      "workqueue_queue_duration_seconds",
      "Time a key waits in the work queue before a worker takes it",
      ["name"],
    );
    this.#work = timing("workqueue_work_duration_seconds", "Time a worker spends on a key", ["name"]);
    this.#retries = new Counter(metric("workqueue_retries_total", "Rate-limited re-adds", ["name"]));
    this.#reconciles = new Counter(
      metric("controller_runtime_reconcile_total", "Reconciles by result", ["controller", "result"]),
    );
    this.#errors = new Counter(
      metric("controller_runtime_reconcile_errors_total", "Reconciles that failed", ["controller"]),
    );
    this.#reconcileTime = timing("controller_runtime_reconcile_time_seconds", "Duration of reconciles", [
      "controller",
    ]);
    this.#leader = new Gauge(
      metric("leader_election_master_status", "1 while this process leads, else 0", ["name"]),
    );
    this.#webhookRequests = new Counter(
      metric("controller_runtime_webhook_requests_total", "Webhook requests by HTTP code", [
        "webhook",
        "code",
      ]),
    );
    this.#webhookLatency = timing(
      "controller_runtime_webhook_latency_seconds",
      "Time to answer a webhook request",
      ["webhook"],
    );
    this.#webhookInFlight = new Gauge(
      metric("controller_runtime_webhook_requests_in_flight", "Webhook requests being answered", ["webhook"]),
    );
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

  webhookRequest(webhook: string, code: number, ms: number): void {
    this.#webhookRequests.inc({ webhook, code: String(code) });
    this.#webhookLatency.observe({ webhook }, ms / 1000);
  }

  webhookInFlight(webhook: string, delta: 1 | -1): void {
    this.#webhookInFlight.inc({ webhook }, delta);
  }
}
