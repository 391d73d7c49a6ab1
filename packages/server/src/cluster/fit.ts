/**
 * Whether a pod fits a node, as kube-scheduler's filter plugins decide it (the basics of each):
 * NodeUnschedulable, NodeName, NodeAffinity (nodeSelector and required node affinity, matchFields on
 * metadata.name), TaintToleration (NoSchedule and NoExecute taints) and NodeResourcesFit (requests
 * against allocatable, and the pod count). Each refusal is upstream's reason text, counted into the
 * Unschedulable message.
 */
import type { coreV1 } from "@kubesdk/models";
import { addLists, compareAmounts, type ResourceList } from "../admission/index.js";

type Pod = coreV1.Pod;
type Node = coreV1.Node & { metadata: { name?: string; labels?: Record<string, string> } };

/** Whether a toleration tolerates a taint (key, operator Exists/Equal, effect). */
export function tolerates(t: coreV1.Toleration, taint: coreV1.Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.operator === "Exists") return !t.key || t.key === taint.key;
  return t.key === taint.key && (t.value ?? "") === (taint.value ?? "");
}

/** The taints of `effects` no toleration of the pod tolerates. */
export function untolerated(
  pod: Pod,
  taints: readonly coreV1.Taint[] | undefined,
  effects: readonly string[],
) {
  const tolerations = pod.spec?.tolerations ?? [];
  return (taints ?? []).filter(
    (taint) => effects.includes(taint.effect) && !tolerations.some((t) => tolerates(t, taint)),
  );
}

function requirementHolds(r: coreV1.NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case "In":
      return value !== undefined && values.includes(value);
    case "NotIn":
      return value === undefined || !values.includes(value);
    case "Exists":
      return value !== undefined;
    case "DoesNotExist":
      return value === undefined;
    case "Gt":
    case "Lt": {
      const n = Number(value);
      const bound = Number(values[0]);
      if (value === undefined || !Number.isInteger(n) || !Number.isInteger(bound)) return false;
      return r.operator === "Gt" ? n > bound : n < bound;
    }
    default:
      return false;
  }
}

function termHolds(term: coreV1.NodeSelectorTerm, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  // A term with no requirements selects nothing, as upstream.
  if (exprs.length === 0 && fields.length === 0) return false;
  return (
    // Own labels only: a key "constructor" is not there unless the node has it.
    exprs.every((r) => requirementHolds(r, Object.hasOwn(labels, r.key) ? labels[r.key] : undefined)) &&
    fields.every((r) => r.key === "metadata.name" && requirementHolds(r, node.metadata.name))
  );
}

/** nodeSelector and requiredDuringSchedulingIgnoredDuringExecution node affinity. */
export function matchesNodeAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return (required.nodeSelectorTerms ?? []).some((t) => termHolds(t, node));
}

/** What the pod's containers request (init containers are not counted: a simplification). */
export function podRequests(pod: Pod): ResourceList {
  let sum: ResourceList = {};
  for (const c of pod.spec?.containers ?? [])
    sum = addLists(
      sum,
      Object.fromEntries(Object.entries(c.resources?.requests ?? {}).map(([k, v]) => [k, String(v)])),
    );
  return sum;
}

/** Why the pod does not fit the node (upstream's reason), or undefined when it fits. */
export function misfit(pod: Pod, node: Node, podsOnNode: readonly Pod[]): string | undefined {
  if (node.spec?.unschedulable) return "node(s) were unschedulable";
  if (!matchesNodeAffinity(pod, node)) return "node(s) didn't match Pod's node affinity/selector";
  const [taint] = untolerated(pod, node.spec?.taints, ["NoSchedule", "NoExecute"]);
  if (taint) return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ""}}`;
  const allocatable = (node.status?.allocatable ?? {}) as Record<string, string>;
  if (allocatable.pods !== undefined && podsOnNode.length + 1 > Number(allocatable.pods))
    return "Too many pods";
  let used: ResourceList = podRequests(pod);
  for (const other of podsOnNode) used = addLists(used, podRequests(other));
  for (const [name, amount] of Object.entries(podRequests(pod))) {
    if (amount === "0") continue;
    const available = allocatable[name];
    if (available === undefined || compareAmounts(used[name], available) > 0) return `Insufficient ${name}`;
  }
  return undefined;
}

/** Upstream's FailedScheduling message: `0/N nodes are available: <count> <reason>, ….` */
export function unschedulableMessage(total: number, reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const parts = [...counts].map(([r, n]) => `${n} ${r}`).sort();
  const why = total === 0 ? "no nodes available to schedule pods" : parts.join(", ");
  return `0/${total} nodes are available: ${why}.`;
}
