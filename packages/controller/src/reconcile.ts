/**
 * What a reconcile function receives and returns.
 *
 * Contract: the reconciler gets the key of a primary object and its state from the informer cache
 * (`object`), or `object: undefined` when it is gone, with `lastKnown` holding the last state the
 * cache had (when it was seen). It returns an action: `done` (forget the key's backoff),
 * `requeueAfter(ms)` (reconcile again later, backoff forgotten) or `requeueRateLimited` (again
 * after the key's exponential backoff). Returning nothing means done. A thrown error goes to the
 * controller's error policy, by default a rate-limited requeue.
 */
import type { KubernetesObject } from "@kubesdk/models";
import { checkNumber } from "./errors.js";
import type { Fence } from "./fence.js";

export type ReconcileAction =
  | { readonly type: "done" }
  | { readonly type: "requeueAfter"; readonly ms: number }
  | { readonly type: "requeueRateLimited" };

export const Action = {
  done: (): ReconcileAction => ({ type: "done" }),
  requeueAfter: (ms: number): ReconcileAction => ({ type: "requeueAfter", ms: checkNumber("ms", ms) }),
  requeueRateLimited: (): ReconcileAction => ({ type: "requeueRateLimited" }),
} as const;

export interface ReconcileRequest<T extends KubernetesObject> extends Fence {
  /** "namespace/name", or "name" for cluster-scoped objects. */
  readonly key: string;
  readonly namespace: string | undefined;
  readonly name: string;
  /** The cached state; undefined when the object is gone. */
  readonly object: T | undefined;
  /** When gone: the last state the cache had, if the controller saw it. */
  readonly lastKnown: T | undefined;
  /** Rate-limited requeues of this key since its last success. */
  readonly retries: number;
  /**
   * Aborted when the controller stops (shutdown deadline passed) or a gate's permission lapses
   * (leadership no longer fresh), whichever comes first.
   */
  readonly signal: AbortSignal;
  /**
   * Throws (`ControllerError` `LEADERSHIP_LOST` for leadership) unless every gate still admits this
   * reconcile; checked synchronously, so it is exact even before `signal` has been aborted. The
   * runtime's writes call it when given the request as their fence.
   */
  check(): void;
}

export type Reconciler<T extends KubernetesObject> = (
  request: ReconcileRequest<T>,
) => Promise<ReconcileAction | undefined> | ReconcileAction | undefined;

/** Decides what follows a reconcile that threw. */
export type ErrorPolicy<T extends KubernetesObject> = (
  error: unknown,
  request: ReconcileRequest<T>,
) => ReconcileAction;

/** Splits "ns/name" or "name". */
export function splitKey(key: string): { namespace: string | undefined; name: string } {
  const slash = key.indexOf("/");
  return slash < 0
    ? { namespace: undefined, name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** Something that writes log lines; the default writes errors and warnings to stderr. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /**
   * Protocol detail, called synchronously at the moment it describes (the leader elector's rounds,
   * the Lease records it observes, its writes): for tracing, and for tests that check the protocol
   * against the times these calls happen. Optional; most loggers leave it out.
   */
  debug?(message: string, fields?: Record<string, unknown>): void;
}

export const consoleLogger: Logger = {
  info: () => {},
  error: (message, fields) => console.error(`[kubesdk/controller] ${message}`, fields ?? ""),
};

export const silentLogger: Logger = { info: () => {}, error: () => {} };
