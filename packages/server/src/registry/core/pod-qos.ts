/**
 * A pod's QoS class, which kube-apiserver sets in `status.qosClass` at create: per resource (cpu,
 * memory), a request equal to its limit and non-zero is Guaranteed, both zero BestEffort, anything
 * else Burstable; the pod is Guaranteed or BestEffort only when every container (init ones too)
 * agrees, else Burstable. Pod-level resources, when they name a pod-level resource, decide alone.
 */
import { Quantity, quantityValue } from "../../validation/quantity-value.js";

type Json = Record<string, unknown>;
type QosClass = "Guaranteed" | "Burstable" | "BestEffort";

const record = (v: unknown): Json =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};
const QOS_RESOURCES = ["cpu", "memory"] as const;

const ZERO = new Quantity(0n, 1n);
const value = (x: unknown) =>
  (typeof x === "string" || typeof x === "number" ? quantityValue(String(x)) : undefined) ?? ZERO;

/** A quantity's value compared with another's (an absent or unparsable one counts as zero). */
const compare = (a: unknown, b: unknown): number => value(a).compare(value(b));

function requirementsQos(resources: Json): QosClass {
  const requests = record(resources.requests);
  const limits = record(resources.limits);
  if (Object.keys(requests).length === 0 && Object.keys(limits).length === 0) return "BestEffort";
  let qos: QosClass | undefined;
  for (const name of QOS_RESOURCES) {
    const one: QosClass =
      compare(requests[name], limits[name]) !== 0
        ? "Burstable"
        : compare(requests[name], "0") === 0
          ? "BestEffort"
          : "Guaranteed";
    if (one === "Burstable" || (qos !== undefined && qos !== one)) return "Burstable";
    qos = one;
  }
  return qos ?? "BestEffort";
}

const POD_LEVEL = (name: string) => name === "cpu" || name === "memory" || name.startsWith("hugepages-");

export function podQosClass(spec: Json): QosClass {
  const podLevel = record(spec.resources);
  const named = [...Object.keys(record(podLevel.requests)), ...Object.keys(record(podLevel.limits))];
  if (named.some(POD_LEVEL)) return requirementsQos(podLevel);
  let qos: QosClass | undefined;
  for (const list of [spec.initContainers, spec.containers])
    for (const c of Array.isArray(list) ? list : []) {
      const one = requirementsQos(record(record(c).resources));
      if (one === "Burstable" || (qos !== undefined && qos !== one)) return "Burstable";
      qos = one;
    }
  return qos ?? "BestEffort";
}
