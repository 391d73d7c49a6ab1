/**
 * RuntimeClass (upstream plugin/pkg/admission/runtimeclass): a new pod naming a RuntimeClass takes
 * its `overhead.podFixed` as `spec.overhead` and its `scheduling` (node selector merged in,
 * tolerations the pod lacks appended). Refused 403: a class that does not exist, an overhead the
 * pod set that differs from the class's, a node selector key the two set differently, and an
 * overhead on a pod that names no class.
 */
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { type AdmissionPlugin, forbidden, handlesOnly } from "../plugin.js";
import { compareAmounts } from "../quota/amounts.js";
import { isRecord, type Json, objectOf, recordAt } from "./target.js";

const CLASSES = "node.k8s.io/runtimeclasses";

/** Same resources, same amounts (quantities compared by value). */
function sameList(a: Json, b: Json): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && compareAmounts(String(a[k]), String(b[k])) === 0);
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function runtimeClassOf(a: AdmissionAttributes, ctx: AdmissionContext, spec: Json): Json | undefined {
  const name = typeof spec.runtimeClassName === "string" ? spec.runtimeClassName : "";
  if (name === "") return undefined;
  const rc = ctx.store.get(CLASSES, name) as Json | undefined;
  if (!rc) throw forbidden(a, `pod rejected: RuntimeClass "${name}" not found`);
  return rc;
}

// As upstream: a class with an overhead must match the pod's exactly (both absent is a match); without
// one (no class, or a class that defines none) the pod may not set an overhead.
function checkOverhead(a: AdmissionAttributes, spec: Json, rc: Json | undefined): void {
  if (rc && isRecord(rc.overhead)) {
    const fixed = rc.overhead.podFixed;
    const matches =
      isRecord(fixed) && isRecord(spec.overhead) ? sameList(spec.overhead, fixed) : !fixed && !spec.overhead;
    if (!matches)
      throw forbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    return;
  }
  if (isRecord(spec.overhead))
    throw forbidden(a, "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead");
}

function mergeScheduling(a: AdmissionAttributes, spec: Json, scheduling: Json): void {
  const selector = recordAt(scheduling, "nodeSelector");
  const own = recordAt(spec, "nodeSelector");
  for (const [key, value] of Object.entries(selector))
    if (Object.hasOwn(own, key) && own[key] !== value)
      throw forbidden(
        a,
        `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${String(value)}; pod.spec.nodeSelector[${key}] = ${String(own[key])}`,
      );
  if (Object.keys(selector).length > 0) spec.nodeSelector = { ...own, ...selector };
  const tolerations = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const extra = (Array.isArray(scheduling.tolerations) ? scheduling.tolerations : []).filter(
    (t) => !tolerations.some((o) => sameJson(o, t)),
  );
  if (extra.length > 0) spec.tolerations = [...tolerations, ...extra];
}

export const runtimeClass: AdmissionPlugin = {
  name: "RuntimeClass",
  handles: handlesOnly("CREATE"),
  admit(a, ctx) {
    const pod = objectOf(a, "", "pods");
    if (!pod) return;
    const spec = recordAt(pod, "spec");
    const rc = runtimeClassOf(a, ctx, spec);
    if (!rc) return;
    const fixed = recordAt(rc, "overhead").podFixed;
    if (isRecord(fixed) && !isRecord(spec.overhead)) spec.overhead = { ...fixed };
    checkOverhead(a, spec, rc);
    if (isRecord(rc.scheduling)) mergeScheduling(a, spec, rc.scheduling);
    pod.spec = spec;
  },
  validate(a, ctx) {
    const pod = objectOf(a, "", "pods");
    if (!pod) return;
    const spec = recordAt(pod, "spec");
    checkOverhead(a, spec, runtimeClassOf(a, ctx, spec));
  },
};
