/**
 * A new pod's QoS class, as kube-apiserver computes it at create (the pod strategy's
 * PrepareForCreate, from the qos helper): BestEffort without CPU or memory requests and limits,
 * Guaranteed when every container (or the pod-level resources, when set) limits both and requests
 * equal limits, Burstable otherwise. The class never changes afterwards (pod-status-rules.ts).
 */
import { arr, obj } from "../../validation/field-errors.js";
import { type Quantity, quantityValue } from "../../validation/quantity-value.js";

type Json = Record<string, unknown>;
type Totals = Map<string, Quantity>;

const QOS_RESOURCES = ["cpu", "memory"];
const ZERO = quantityValue("0") as Quantity;

/** Adds the positive CPU and memory quantities of `list`; answers which were found. */
function addPositive(list: unknown, into: Totals): Set<string> {
  const found = new Set<string>();
  for (const [name, text] of Object.entries(obj(list))) {
    const q = typeof text === "string" ? quantityValue(text) : undefined;
    if (!QOS_RESOURCES.includes(name) || !q || q.compare(ZERO) <= 0) continue;
    into.set(name, into.get(name)?.plus(q) ?? q);
    found.add(name);
  }
  return found;
}

/** Whether the pod-level resources name CPU or memory (they then decide alone). */
function podLevelSet(spec: Json): boolean {
  const r = obj(spec.resources);
  return [...Object.keys(obj(r.requests)), ...Object.keys(obj(r.limits))].some((n) =>
    QOS_RESOURCES.includes(n),
  );
}

export function podQosClass(spec: Json): "BestEffort" | "Burstable" | "Guaranteed" {
  const requests: Totals = new Map();
  const limits: Totals = new Map();
  let guaranteed = true;
  const sources = podLevelSet(spec) ? [spec] : [...arr(spec.containers), ...arr(spec.initContainers)];
  for (const source of sources) {
    const resources = obj(obj(source).resources);
    addPositive(resources.requests, requests);
    const limited = addPositive(resources.limits, limits);
    if (!QOS_RESOURCES.every((n) => limited.has(n))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return "BestEffort";
  if (guaranteed)
    for (const [name, request] of requests) if (limits.get(name)?.compare(request) !== 0) guaranteed = false;
  return guaranteed && requests.size === limits.size ? "Guaranteed" : "Burstable";
}
