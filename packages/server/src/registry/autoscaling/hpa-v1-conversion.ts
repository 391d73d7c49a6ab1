/**
 * HorizontalPodAutoscaler in autoscaling/v1, served from the autoscaling/v2 objects the bucket
 * stores, as kube-apiserver converts them: v1's `targetCPUUtilizationPercentage` is v2's CPU
 * Utilization metric, and what v1 cannot express (other metrics, behavior, current metrics,
 * conditions) travels in `autoscaling.alpha.kubernetes.io/*` annotations, so that a read-modify-write
 * through v1 keeps a v2 object whole. Those annotations never show in v2.
 */
import type { StorageConversion } from "../../resources/served.js";
import { isObj, type Obj } from "../default-fields.js";
import { defaultV2 } from "./hpa-defaults.js";
import {
  compact,
  metricSpecFromV1,
  metricSpecToV1,
  metricStatusFromV1,
  metricStatusToV1,
} from "./hpa-v1-metrics.js";

const V1 = "autoscaling/v1";
const V2 = "autoscaling/v2";
const METRICS = "autoscaling.alpha.kubernetes.io/metrics";
const CURRENT_METRICS = "autoscaling.alpha.kubernetes.io/current-metrics";
const BEHAVIOR = "autoscaling.alpha.kubernetes.io/behavior";
const CONDITIONS = "autoscaling.alpha.kubernetes.io/conditions";
const ROUND_TRIP = [METRICS, CURRENT_METRICS, BEHAVIOR, CONDITIONS];
/** The CPU utilization v1 implied when no target was given. */
const DEFAULT_CPU_UTILIZATION = 80;

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});

/** Metadata without the round-trip annotations (and without an annotations map they emptied). */
function dropRoundTrip(metadata: Obj): { metadata: Obj; annotations: Record<string, string> } {
  const annotations = { ...(obj(metadata.annotations) as Record<string, string>) };
  for (const k of ROUND_TRIP) delete annotations[k];
  const { annotations: _a, ...rest } = metadata;
  return { metadata: Object.keys(annotations).length > 0 ? { ...rest, annotations } : rest, annotations };
}

/** Parsed JSON of an annotation, undefined when absent or not JSON (upstream ignores bad JSON). */
function parsed(annotations: Obj, key: string): unknown {
  const text = annotations[key];
  if (typeof text !== "string") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isCpuResource = (m: Obj) => m.type === "Resource" && isObj(m.resource) && m.resource.name === "cpu";
const cpuUtilization = (m: Obj): unknown => obj(obj(m.resource).target).averageUtilization;

/** The behavior's scaling-rule fields: Go's field names (the annotation's keys) and the API's. */
const RULE_FIELDS = [
  ["StabilizationWindowSeconds", "stabilizationWindowSeconds"],
  ["SelectPolicy", "selectPolicy"],
  ["Policies", "policies"],
  ["Tolerance", "tolerance"],
] as const;
const POLICY_FIELDS = [
  ["Type", "type"],
  ["Value", "value"],
  ["PeriodSeconds", "periodSeconds"],
] as const;

/** Renames keys by pairs [a, b] (from index `from` to the other); missing ones become `missing`. */
function renamed(o: Obj, pairs: readonly (readonly [string, string])[], from: 0 | 1, missing: unknown): Obj {
  const out: Obj = {};
  for (const pair of pairs) {
    const v = o[pair[from]];
    out[pair[1 - from] as string] = v === undefined || v === null ? missing : v;
  }
  return out;
}

/** Scaling rules renamed between the API and Go's field names; `missing` is null toward Go. */
function rules(r: unknown, from: 0 | 1): Obj | undefined {
  if (!isObj(r)) return undefined;
  const missing = from === 1 ? null : undefined;
  const out = renamed(r, RULE_FIELDS, from, missing);
  const [source, target] = from === 1 ? ["policies", "Policies"] : ["Policies", "policies"];
  const policies = r[source];
  if (Array.isArray(policies))
    out[target] = list(policies).map((p) => renamed(p, POLICY_FIELDS, from, missing));
  return from === 1 ? out : compact(out);
}

/**
 * Go's JSON of the internal behavior type (no JSON names: field names as written in Go), which is
 * what kube-apiserver puts in the behavior annotation.
 */
function behaviorAnnotation(behavior: Obj): string {
  return JSON.stringify({
    ScaleUp: rules(behavior.scaleUp, 1) ?? null,
    ScaleDown: rules(behavior.scaleDown, 1) ?? null,
  });
}

function behaviorFromAnnotation(value: unknown): Obj | undefined {
  if (!isObj(value)) return undefined;
  const out = compact({ scaleUp: rules(value.ScaleUp, 0), scaleDown: rules(value.ScaleDown, 0) });
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A condition as Go encodes it: its fields in declaration order, an unset time as null. */
const conditionInGoOrder = (c: Obj): Obj =>
  compact({
    type: c.type,
    status: c.status,
    lastTransitionTime: c.lastTransitionTime ?? null,
    reason: c.reason,
    message: c.message,
  });

/** The stored v2 object as autoscaling/v1 shows it. */
function toV1(hpa: Obj): Obj {
  if (hpa.apiVersion === V1) return hpa;
  const spec = obj(hpa.spec);
  const status = isObj(hpa.status) ? hpa.status : undefined;
  const metrics = list(spec.metrics);
  const { metadata, annotations } = dropRoundTrip(obj(hpa.metadata));
  const extra: Record<string, string> = {};
  const others = metrics.filter((m) => !(isCpuResource(m) && cpuUtilization(m) !== undefined));
  if (others.length > 0) extra[METRICS] = JSON.stringify(others.map(metricSpecToV1));
  const current = list(status?.currentMetrics);
  if (current.length > 0) extra[CURRENT_METRICS] = JSON.stringify(current.map(metricStatusToV1));
  if (isObj(spec.behavior)) extra[BEHAVIOR] = behaviorAnnotation(spec.behavior);
  const conditions = list(status?.conditions);
  if (conditions.length > 0) extra[CONDITIONS] = JSON.stringify(conditions.map(conditionInGoOrder));
  const cpu = metrics.find(isCpuResource);
  const currentCpu = current
    .filter(isCpuResource)
    .map((m) => obj(obj(m.resource).current).averageUtilization);
  return {
    ...hpa,
    apiVersion: V1,
    metadata:
      Object.keys(extra).length > 0 ? { ...metadata, annotations: { ...annotations, ...extra } } : metadata,
    spec: compact({
      scaleTargetRef: spec.scaleTargetRef,
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      targetCPUUtilizationPercentage: cpu ? cpuUtilization(cpu) : undefined,
    }),
    ...(status
      ? {
          status: compact({
            observedGeneration: status.observedGeneration,
            lastScaleTime: status.lastScaleTime,
            currentReplicas: status.currentReplicas ?? 0,
            desiredReplicas: status.desiredReplicas ?? 0,
            currentCPUUtilizationPercentage: currentCpu.findLast((u) => u !== undefined),
          }),
        }
      : {}),
  };
}

/** A v1 object in the stored v2 shape: its CPU target and its annotations' metrics, behavior, status. */
function toV2(hpa: Obj): Obj {
  if (hpa.apiVersion === V2) return hpa;
  const spec = obj(hpa.spec);
  const status = isObj(hpa.status) ? hpa.status : undefined;
  const source = obj(obj(hpa.metadata).annotations);
  const { metadata } = dropRoundTrip(obj(hpa.metadata));
  const cpu =
    spec.targetCPUUtilizationPercentage === undefined ? [] : [cpuMetric(spec.targetCPUUtilizationPercentage)];
  const others = parsed(source, METRICS);
  let metrics = Array.isArray(others) ? [...list(others).map(metricSpecFromV1), ...cpu] : cpu;
  // v1 left the CPU target to the controller when none was given; v2 states it.
  if (metrics.length === 0) metrics = [cpuMetric(DEFAULT_CPU_UTILIZATION)];
  const behavior = behaviorFromAnnotation(parsed(source, BEHAVIOR));
  // The stored version always has a status: Go writes its empty one as below.
  const outStatus = statusToV2(status ?? {}, source);
  const out: Obj = {
    ...hpa,
    apiVersion: V2,
    metadata,
    spec: compact({
      scaleTargetRef: spec.scaleTargetRef,
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      metrics,
      behavior,
    }),
    status: outStatus,
  };
  // What the stored version reads back is defaulted (upstream defaults as it decodes from etcd).
  defaultV2(out);
  return out;
}

function cpuMetric(utilization: unknown): Obj {
  return {
    type: "Resource",
    resource: { name: "cpu", target: { type: "Utilization", averageUtilization: utilization } },
  };
}

function statusToV2(status: Obj, annotations: Obj): Obj {
  const fromAnnotation = parsed(annotations, CURRENT_METRICS);
  const cpu = status.currentCPUUtilizationPercentage;
  const currentMetrics = Array.isArray(fromAnnotation)
    ? list(fromAnnotation).map(metricStatusFromV1)
    : cpu === undefined
      ? undefined
      : [{ type: "Resource", resource: { name: "cpu", current: { averageUtilization: cpu } } }];
  const conditions = parsed(annotations, CONDITIONS);
  return compact({
    observedGeneration: status.observedGeneration,
    lastScaleTime: status.lastScaleTime,
    currentReplicas: status.currentReplicas,
    desiredReplicas: status.desiredReplicas ?? 0,
    currentMetrics: currentMetrics ?? null,
    conditions: Array.isArray(conditions) ? list(conditions) : undefined,
  });
}

export const hpaV1Conversion: StorageConversion = {
  toStored: toV2,
  fromStored: toV1,
  betweenVersions: true,
};
