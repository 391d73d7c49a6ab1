/**
 * What a pod costs a quota, as upstream's pod evaluator measures it: the object count always; the
 * compute resources (requests and limits, with init containers taken at their maximum and pod
 * overhead added) only while the pod is not terminal. Also the pod facts quota scopes test.
 */
import { addAmounts, compareAmounts, type ResourceList } from "./amounts.js";

type Json = Record<string, unknown>;

const record = (v: unknown): Json =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(record) : []);
const amounts = (v: unknown): ResourceList =>
  Object.fromEntries(
    Object.entries(record(v)).flatMap(([k, x]) =>
      typeof x === "string" ? [[k, x]] : typeof x === "number" ? [[k, String(x)]] : [],
    ),
  );

const EXTENDED_PREFIX_FREE = /^(kubernetes\.io\/|requests\.|limits\.)|^[^/]*$/;

/** An extended resource: a domain-prefixed name outside kubernetes.io (upstream's helper). */
function isExtended(name: string): boolean {
  return !EXTENDED_PREFIX_FREE.test(name) && !name.startsWith("requests.");
}

/** Per key: a + b. */
function sum(a: ResourceList, b: ResourceList): ResourceList {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = out[k] === undefined ? v : addAmounts(out[k], v);
  return out;
}

/** Per key: the larger of a and b. */
function max(a: ResourceList, b: ResourceList): ResourceList {
  const out = { ...a };
  for (const [k, v] of Object.entries(b))
    if (out[k] === undefined || compareAmounts(v, out[k]) > 0) out[k] = v;
  return out;
}

/** The pod's effective requests or limits: containers summed, init containers at their max, overhead. */
export function podTotals(pod: Json, which: "requests" | "limits", withOverhead = true): ResourceList {
  const spec = record(pod.spec);
  let total: ResourceList = {};
  for (const c of list(spec.containers)) total = sum(total, amounts(record(c.resources)[which]));
  let init: ResourceList = {};
  for (const c of list(spec.initContainers)) {
    const own = amounts(record(c.resources)[which]);
    // A restartable init container (a sidecar) runs alongside the app containers.
    if (c.restartPolicy === "Always") total = sum(total, own);
    else init = max(init, own);
  }
  total = max(total, init);
  return withOverhead ? sum(total, amounts(spec.overhead)) : total;
}

/** The compute part of the usage, from requests and limits (upstream's podComputeUsageHelper). */
export function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = { pods: "1" };
  for (const r of ["cpu", "memory", "ephemeral-storage"]) {
    const request = requests[r];
    if (request !== undefined) {
      out[r] = request;
      out[`requests.${r}`] = request;
    }
    const limit = limits[r];
    if (limit !== undefined) out[`limits.${r}`] = limit;
  }
  for (const [r, v] of Object.entries(requests)) {
    if (r.startsWith("hugepages-")) {
      out[r] = v;
      out[`requests.${r}`] = v;
    } else if (isExtended(r)) out[`requests.${r}`] = v;
  }
  return out;
}

/** Whether a pod is past charging compute: a terminal phase, or deleted with its grace expired. */
function isTerminal(pod: Json, now: number): boolean {
  const phase = record(pod.status).phase;
  if (phase === "Succeeded" || phase === "Failed") return true;
  const meta = record(pod.metadata);
  if (typeof meta.deletionTimestamp !== "string") return false;
  const grace = typeof meta.deletionGracePeriodSeconds === "number" ? meta.deletionGracePeriodSeconds : 0;
  return Date.parse(meta.deletionTimestamp) + grace * 1000 < now;
}

export function podUsage(pod: Json, now: number): ResourceList {
  const count: ResourceList = { "count/pods": "1" };
  if (isTerminal(pod, now)) return count;
  return { ...count, ...computeUsage(podTotals(pod, "requests"), podTotals(pod, "limits")) };
}

/** The compute resources a container sets (for the must-specify rule). */
export function containerUsage(container: Json): ResourceList {
  const resources = record(container.resources);
  return computeUsage(amounts(resources.requests), amounts(resources.limits));
}

export function podContainers(pod: Json): Json[] {
  const spec = record(pod.spec);
  return [...list(spec.containers), ...list(spec.initContainers)];
}

/** BestEffort QoS: no container (init included) requests or limits cpu or memory. */
export function isBestEffort(pod: Json): boolean {
  for (const c of podContainers(pod)) {
    const resources = record(c.resources);
    for (const which of [resources.requests, resources.limits])
      for (const [k, v] of Object.entries(record(which)))
        if ((k === "cpu" || k === "memory") && compareAmounts(String(v), "0") !== 0) return false;
  }
  return true;
}

export function isTerminating(pod: Json): boolean {
  const deadline = record(pod.spec).activeDeadlineSeconds;
  return typeof deadline === "number" && deadline >= 0;
}

export function priorityClassOf(pod: Json): string {
  const name = record(pod.spec).priorityClassName;
  return typeof name === "string" ? name : "";
}

/** Pod (anti-)affinity terms naming other namespaces (the CrossNamespacePodAffinity scope). */
export function usesCrossNamespaceAffinity(pod: Json): boolean {
  const affinity = record(record(pod.spec).affinity);
  for (const kind of [affinity.podAffinity, affinity.podAntiAffinity]) {
    const k = record(kind);
    const terms = [
      ...list(k.requiredDuringSchedulingIgnoredDuringExecution),
      ...list(k.preferredDuringSchedulingIgnoredDuringExecution).map((w) => record(w.podAffinityTerm)),
    ];
    if (terms.some((t) => list(t.namespaces).length > 0 || t.namespaceSelector !== undefined)) return true;
  }
  return false;
}
