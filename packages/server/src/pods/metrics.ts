/**
 * metrics.k8s.io/v1beta1 from the pod simulation, as metrics-server serves it: NodeMetrics and
 * PodMetrics (list and get; pods per namespace or across all), with label selectors. A container
 * reports the usage set with `PodRuntime.setUsage`, else its resource requests, else 1m CPU and
 * 8Mi memory; a node reports `setNodeUsage`, else the sum of its pods. Pods that have ended
 * (Succeeded, Failed) are not reported. The same answers back the reference server's routes and
 * the HTTPS endpoint a real kube-apiserver aggregates (kubelet/metrics-endpoint.ts).
 */

import { matchesLabels, parseLabelSelector, SelectorParseError } from "../api/label-selector.js";
import { errors, StatusError } from "../api/status.js";
import type { PodRuntime } from "./runtime.js";
import type { SimulatedUsage } from "./types.js";

export const METRICS_GROUP = "metrics.k8s.io";
export const METRICS_VERSION = "v1beta1";
const WINDOW = "30s";
const DEFAULT_USAGE: SimulatedUsage = { cpu: "1m", memory: "8Mi" };

type Json = Record<string, unknown>;
interface Meta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  creationTimestamp?: string;
}
interface PodLike {
  metadata?: Meta;
  spec?: { nodeName?: string; containers?: { name?: string; resources?: { requests?: SimulatedUsage } }[] };
  status?: { phase?: string };
}

/** Where the pods and nodes to report come from (the store, or a real apiserver). */
export interface MetricsSource {
  /** Pods of a namespace, or of every namespace (`undefined`). */
  pods(namespace: string | undefined): Promise<readonly Json[]> | readonly Json[];
  nodes(): Promise<readonly Json[]> | readonly Json[];
}

/** The APIResourceList of metrics.k8s.io/v1beta1. */
export function metricsResourceList(): Json {
  const resource = (name: string, kind: string, namespaced: boolean) => ({
    name,
    singularName: "",
    namespaced,
    kind,
    verbs: ["get", "list"],
  });
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: `${METRICS_GROUP}/${METRICS_VERSION}`,
    resources: [resource("nodes", "NodeMetrics", false), resource("pods", "PodMetrics", true)],
  };
}

/** The group's entry in an APIGroupList (and, with kind, its APIGroup document). */
export function metricsGroup(): Json {
  const version = { groupVersion: `${METRICS_GROUP}/${METRICS_VERSION}`, version: METRICS_VERSION };
  return { name: METRICS_GROUP, versions: [version], preferredVersion: version };
}

/** What a metrics request reads: discovery, or one kind listed or got. */
export type MetricsTarget =
  | { readonly doc: "group" | "version" }
  | { readonly kind: "nodes" | "pods"; readonly namespace?: string; readonly name?: string };

const PATHS: readonly [RegExp, (m: RegExpExecArray) => MetricsTarget][] = [
  [/^\/apis\/metrics\.k8s\.io\/?$/, () => ({ doc: "group" })],
  [/^\/apis\/metrics\.k8s\.io\/v1beta1\/?$/, () => ({ doc: "version" })],
  [/^\/apis\/metrics\.k8s\.io\/v1beta1\/(nodes|pods)(?:\/([^/]+))?$/, nodesOrPods],
  [
    /^\/apis\/metrics\.k8s\.io\/v1beta1\/namespaces\/([^/]+)\/pods(?:\/([^/]+))?$/,
    (m) => ({ kind: "pods", namespace: decode(m[1]), ...(m[2] ? { name: decode(m[2]) } : {}) }),
  ],
];

function decode(s: string | undefined): string {
  return decodeURIComponent(s ?? "");
}

/** `/nodes[/name]`, or `/pods` across namespaces (a pod is named within a namespace only). */
function nodesOrPods(m: RegExpExecArray): MetricsTarget {
  const kind = m[1] as "nodes" | "pods";
  if (kind === "pods" && m[2]) throw errors.notFoundPath();
  return { kind, ...(m[2] ? { name: decode(m[2]) } : {}) };
}

/** The metrics request a path addresses, or `undefined` outside metrics.k8s.io. */
export function metricsTarget(pathname: string): MetricsTarget | undefined {
  const group = `/apis/${METRICS_GROUP}`;
  if (pathname !== group && !pathname.startsWith(`${group}/`)) return undefined;
  for (const [re, make] of PATHS) {
    const m = re.exec(pathname);
    if (m) return make(m);
  }
  throw errors.notFoundPath();
}

/** Answers a metrics request (the body of a 200; Status errors are thrown). */
export async function metricsAnswer(
  runtime: PodRuntime,
  source: MetricsSource,
  target: MetricsTarget,
  query: URLSearchParams,
  now: number,
): Promise<Json> {
  if ("doc" in target)
    return target.doc === "group"
      ? { kind: "APIGroup", apiVersion: "v1", ...metricsGroup() }
      : metricsResourceList();
  const selector = labelRequirements(query.get("labelSelector"));
  const timestamp = new Date(Math.floor(now / 1000) * 1000).toISOString().replace(/\.\d+Z$/, "Z");
  const pods = (await source.pods(target.namespace)) as readonly PodLike[];
  const live = pods.filter((p) => p.status?.phase !== "Succeeded" && p.status?.phase !== "Failed");
  const items =
    target.kind === "nodes"
      ? ((await source.nodes()) as readonly PodLike[]).map((n) => nodeMetrics(runtime, n, live, timestamp))
      : live.map((p) => podMetrics(runtime, p, timestamp));
  const named = (i: Json) => (i.metadata as Meta).name === target.name;
  if (target.name !== undefined) {
    const found = items.find(named);
    const resource = target.kind === "nodes" ? "nodemetrics" : "podmetrics";
    if (!found) throw errors.notFound({ group: METRICS_GROUP, resource }, target.name);
    return found;
  }
  const kind = target.kind === "nodes" ? "NodeMetricsList" : "PodMetricsList";
  const selected = items.filter((i) => matchesLabels(selector, (i.metadata as Meta).labels));
  return { kind, apiVersion: `${METRICS_GROUP}/${METRICS_VERSION}`, metadata: {}, items: selected };
}

function labelRequirements(raw: string | null) {
  try {
    return parseLabelSelector(raw ?? "");
  } catch (err) {
    if (err instanceof SelectorParseError) throw errors.badRequest(err.message);
    throw err;
  }
}

function metadataOf(object: PodLike, timestamp: string): Meta {
  const m = object.metadata ?? {};
  return {
    name: m.name as string,
    ...(m.namespace ? { namespace: m.namespace } : {}),
    creationTimestamp: timestamp,
    ...(m.labels ? { labels: m.labels } : {}),
  };
}

function containerUsage(runtime: PodRuntime, pod: PodLike): { name: string; usage: SimulatedUsage }[] {
  const { name = "", namespace = "" } = pod.metadata ?? {};
  return (pod.spec?.containers ?? []).map((c) => {
    const cname = c.name ?? "";
    const set = runtime.usageSet(namespace, name, cname);
    const requests = c.resources?.requests;
    const usage = set ?? {
      cpu: requests?.cpu ?? (DEFAULT_USAGE.cpu as string),
      memory: requests?.memory ?? (DEFAULT_USAGE.memory as string),
    };
    return { name: cname, usage };
  });
}

/** A NodeMetrics or PodMetrics object of `object` with the usage fields `usage`. */
function metricsObject(kind: string, object: PodLike, timestamp: string, usage: Json): Json {
  const head = { kind, apiVersion: `${METRICS_GROUP}/${METRICS_VERSION}` };
  return { ...head, metadata: metadataOf(object, timestamp), timestamp, window: WINDOW, ...usage };
}

function podMetrics(runtime: PodRuntime, pod: PodLike, timestamp: string): Json {
  return metricsObject("PodMetrics", pod, timestamp, { containers: containerUsage(runtime, pod) });
}

function nodeMetrics(runtime: PodRuntime, node: PodLike, pods: readonly PodLike[], timestamp: string): Json {
  const name = node.metadata?.name ?? "";
  let usage = runtime.nodeUsageSet(name);
  if (usage === undefined) {
    let milliCpu = 0;
    let bytes = 0;
    for (const p of pods.filter((p) => p.spec?.nodeName === name))
      for (const c of containerUsage(runtime, p)) {
        milliCpu += milliCores(c.usage.cpu ?? "0");
        bytes += byteCount(c.usage.memory ?? "0");
      }
    usage = { cpu: `${Math.ceil(milliCpu)}m`, memory: `${Math.ceil(bytes / 1024)}Ki` };
  }
  return metricsObject("NodeMetrics", node, timestamp, { usage });
}

const SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  "": 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

/** A quantity's value (0 for what does not parse: usage is reported, not validated). */
function quantity(raw: string): number {
  const m = /^([0-9.]+)(n|u|m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(raw.trim());
  if (!m) return 0;
  return Number(m[1]) * (SUFFIX[m[2] ?? ""] ?? 0);
}

function milliCores(raw: string): number {
  return quantity(raw) * 1000;
}

function byteCount(raw: string): number {
  return quantity(raw);
}

/** A metrics Status error as JSON (for servers that write errors themselves). */
export function metricsError(err: unknown): { code: number; body: unknown } {
  if (err instanceof StatusError) return { code: err.status.code ?? 500, body: err.status };
  return {
    code: 500,
    body: { kind: "Status", apiVersion: "v1", status: "Failure", message: String(err), code: 500 },
  };
}
