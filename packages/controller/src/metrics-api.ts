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
