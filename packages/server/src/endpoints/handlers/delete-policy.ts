/**
 * What a DELETE leaves behind before the object goes: the finalizers of its
 * propagation policy (Orphan, Foreground) and, for pods, the grace period.
 */
import type { ServedResource } from "../../resources/served.js";
import type { KubeObject } from "./context.js";

export const ORPHAN_FINALIZER = "orphan";
export const FOREGROUND_FINALIZER = "foregroundDeletion";

export interface PolicyOptions {
  readonly propagationPolicy?: string;
  readonly orphanDependents?: boolean;
  readonly gracePeriodSeconds?: number;
}

/** The policy a DELETE asks for, or the resource's default (batch/v1 Jobs orphan, for compatibility). */
export function propagationPolicyOf(r: ServedResource, opts: PolicyOptions): string {
  if (opts.propagationPolicy) return opts.propagationPolicy;
  if (opts.orphanDependents !== undefined) return opts.orphanDependents ? "Orphan" : "Background";
  if (r.group === "batch" && r.resource === "jobs") return "Orphan";
  return "Background";
}

/** Finalizers the policy adds: the garbage collector removes them when it has done its part. */
export function policyFinalizers(r: ServedResource, opts: PolicyOptions): string[] {
  const policy = propagationPolicyOf(r, opts);
  if (policy === "Orphan") return [ORPHAN_FINALIZER];
  if (policy === "Foreground") return [FOREGROUND_FINALIZER];
  return [];
}

/**
 * Seconds a deleted object stays before it goes. Only pods have one: the request's value, else the
 * pod's terminationGracePeriodSeconds (default 30); 0 for pods on no node or already finished.
 */
export function gracePeriodOf(r: ServedResource, obj: KubeObject, opts: PolicyOptions): number {
  if (r.group !== "" || r.resource !== "pods") return 0;
  const spec = (obj.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
  const phase = (obj.status as { phase?: string } | undefined)?.phase;
  if (!spec.nodeName || phase === "Succeeded" || phase === "Failed") return 0;
  const grace = opts.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30;
  // Upstream turns a negative period into 1 second, and keeps 0 as "now".
  return grace < 0 ? 1 : grace;
}
