/**
 * RuntimeClass: a pod created with `spec.runtimeClassName` must name an existing RuntimeClass
 * (403 otherwise); the mutating phase copies the class's `overhead.podFixed` into `spec.overhead`
 * and merges its `scheduling` node selector and tolerations into the pod's, and the validating
 * phase refuses a pod whose overhead is not the class's (or is set without a class that has one).
 * Tolerations the pod already has (equal ones) are not added twice.
 */
import { isDeepStrictEqual } from "node:util";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { type AdmissionPlugin, forbidden, handlesOnly } from "../plugin.js";
import { compareAmounts } from "../quota/amounts.js";

type Json = Record<string, unknown>;

const BUCKET = "node.k8s.io/runtimeclasses";
const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const recordAt = (v: unknown, key: string): Json => (isRecord(v) && isRecord(v[key]) ? v[key] : {});

function podSpec(a: AdmissionAttributes): Json | undefined {
  if (a.subresource !== "" || a.resource.group !== "" || a.resource.resource !== "pods") return undefined;
  return isRecord(a.object) && isRecord(a.object.spec) ? a.object.spec : undefined;
}

/** The pod's RuntimeClass; undefined when it names none; refuses a name that does not exist. */
function runtimeClassOf(a: AdmissionAttributes, ctx: AdmissionContext, spec: Json): Json | undefined {
  const name = spec.runtimeClassName;
  if (typeof name !== "string") return undefined;
  const found = ctx.store.get(BUCKET, name);
  if (!found) throw forbidden(a, `pod rejected: RuntimeClass "${name}" not found`);
  return found as Json;
}

/** Equal resource lists: the same names, each with the same amount (1Gi equals 1073741824). */
function sameResources(a: Json, b: Json): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => k in b && compareAmounts(String(a[k]), String(b[k])) === 0);
}

const MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

function setOverhead(a: AdmissionAttributes, spec: Json, rc: Json): void {
  const fixed = recordAt(rc.overhead, "podFixed");
  if (!isRecord(rc.overhead)) return;
  const own = recordAt(spec, "overhead");
  if (Object.keys(own).length > 0 && !sameResources(fixed, own)) throw forbidden(a, MISMATCH);
  spec.overhead = { ...fixed };
}

function setScheduling(a: AdmissionAttributes, spec: Json, rc: Json): void {
  if (!isRecord(rc.scheduling)) return;
  const wanted = recordAt(rc.scheduling, "nodeSelector");
  const selector = recordAt(spec, "nodeSelector");
  for (const [key, value] of Object.entries(wanted)) {
    if (key in selector && selector[key] !== value)
      throw forbidden(
        a,
        `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${String(value)}; pod.spec.nodeSelector[${key}] = ${String(selector[key])}`,
      );
    selector[key] = value;
  }
  if (Object.keys(selector).length > 0) spec.nodeSelector = selector;
  const own = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const extra = Array.isArray(rc.scheduling.tolerations) ? rc.scheduling.tolerations : [];
  const merged = [...own, ...extra.filter((t) => !own.some((o) => isDeepStrictEqual(o, t)))];
  if (merged.length > 0) spec.tolerations = merged;
}

export const runtimeClass: AdmissionPlugin = {
  name: "RuntimeClass",
  handles: handlesOnly("CREATE"),
  admit(a, ctx) {
    const spec = podSpec(a);
    const rc = spec && runtimeClassOf(a, ctx, spec);
    if (!spec || !rc) return;
    setOverhead(a, spec, rc);
    setScheduling(a, spec, rc);
  },
  validate(a, ctx) {
    const spec = podSpec(a);
    if (!spec) return;
    const rc = runtimeClassOf(a, ctx, spec);
    const own = isRecord(spec.overhead) ? spec.overhead : undefined;
    if (rc && isRecord(rc.overhead)) {
      if (!sameResources(recordAt(rc.overhead, "podFixed"), own ?? {})) throw forbidden(a, MISMATCH);
    } else if (own)
      throw forbidden(
        a,
        "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead",
      );
  },
};
