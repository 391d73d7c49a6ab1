/**
 * What the runtime reports to a metrics backend. The Prometheus implementation is in metrics.ts;
 * tests and other backends implement this interface directly.
 */
import type { WorkQueueMetrics } from "./work-queue.js";

/** How a reconcile ended. */
export type ReconcileResult = "success" | "error" | "requeue" | "requeue_after";

export interface ControllerMetrics {
  /** The observer of one controller's work queue. */
  queue(controller: string): WorkQueueMetrics<string>;
  reconciled(controller: string, result: ReconcileResult, ms: number): void;
}

/** What a webhook server reports per request, labelled by the webhook's path. */
export interface WebhookMetrics {
  /** One request answered with HTTP `code` after `ms`. */
  webhookRequest(webhook: string, code: number, ms: number): void;
  /** Requests being handled now went up (+1) or down (-1). */
  webhookInFlight(webhook: string, delta: 1 | -1): void;
}
