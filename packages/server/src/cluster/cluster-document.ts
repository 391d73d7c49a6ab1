/**
 * The simulated cluster as a YAML document (`kubesdk-server --cluster-config FILE`), KWOK-like:
 *
 *   apiVersion: kubesdk.dev/v1alpha1
 *   kind: SimulatedCluster
 *   nodes: [{ name: node-1, labels: {…}, taints: [{ key, value, effect }], capacity: { cpu: "8" } }]
 *   stages: [{ name: slow, namespace: shop, selector: { matchLabels: {…} }, ownerKind: Job, images: […],
 *              behaviour: { startMs, readyMs, ready, runMs, exitCode, ignoresSigterm, imagePullFails } }]
 *   heartbeatMs, nodeMonitorGraceMs, restartBackoffMs, maxRestartBackoffMs: numbers
 *
 * Checked field by field; the first wrong one is named in the error.
 */
import type { PodBehaviour, PodStage } from "./behaviour.js";
import type { SimulatedNodeConfig } from "./node-agent.js";
import type { ClusterOptions } from "./options.js";

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function fail(path: string, want: string): never {
  throw new Error(`${path}: must be ${want}`);
}

function record(v: unknown, path: string): Json {
  return isRecord(v) ? v : fail(path, "an object");
}

function list(v: unknown, path: string): unknown[] {
  return Array.isArray(v) ? v : fail(path, "a list");
}

function strings(v: unknown, path: string): Record<string, string> {
  const r = record(v, path);
  for (const [k, x] of Object.entries(r)) if (typeof x !== "string") fail(`${path}.${k}`, "a string");
  return r as Record<string, string>;
}

function count(v: unknown, path: string): number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : fail(path, "a whole number ≥ 0");
}

const BEHAVIOUR_NUMBERS = ["startMs", "readyMs", "runMs", "exitCode"] as const;
const BEHAVIOUR_FLAGS = ["ready", "ignoresSigterm", "imagePullFails"] as const;

function behaviour(v: unknown, path: string): PodBehaviour {
  const r = record(v, path);
  const out: Record<string, number | boolean> = {};
  for (const [k, x] of Object.entries(r)) {
    if ((BEHAVIOUR_NUMBERS as readonly string[]).includes(k)) out[k] = count(x, `${path}.${k}`);
    else if ((BEHAVIOUR_FLAGS as readonly string[]).includes(k))
      out[k] = typeof x === "boolean" ? x : fail(`${path}.${k}`, "true or false");
    else fail(`${path}.${k}`, `one of ${[...BEHAVIOUR_NUMBERS, ...BEHAVIOUR_FLAGS].join(", ")}`);
  }
  return out as PodBehaviour;
}

function node(v: unknown, path: string): SimulatedNodeConfig {
  const r = record(v, path);
  if (typeof r.name !== "string" || r.name === "") fail(`${path}.name`, "a node name");
  const taints = r.taints === undefined ? undefined : list(r.taints, `${path}.taints`);
  taints?.forEach((t, i) => {
    const taint = record(t, `${path}.taints[${i}]`);
    if (!["NoSchedule", "PreferNoSchedule", "NoExecute"].includes(String(taint.effect)))
      fail(`${path}.taints[${i}].effect`, "NoSchedule, PreferNoSchedule or NoExecute");
  });
  return {
    name: r.name,
    ...(r.labels !== undefined ? { labels: strings(r.labels, `${path}.labels`) } : {}),
    ...(r.capacity !== undefined ? { capacity: strings(r.capacity, `${path}.capacity`) } : {}),
    ...(taints ? { taints: taints as SimulatedNodeConfig["taints"] } : {}),
  };
}

function images(v: unknown, path: string): string[] {
  return list(v, path).map((x, i) => (typeof x === "string" ? x : fail(`${path}[${i}]`, "an image name")));
}

function stage(v: unknown, path: string): PodStage {
  const r = record(v, path);
  for (const k of ["name", "namespace", "ownerKind"])
    if (r[k] !== undefined && typeof r[k] !== "string") fail(`${path}.${k}`, "a string");
  return {
    ...(r.name !== undefined ? { name: String(r.name) } : {}),
    ...(r.namespace !== undefined ? { namespace: String(r.namespace) } : {}),
    ...(r.ownerKind !== undefined ? { ownerKind: String(r.ownerKind) } : {}),
    ...(r.selector !== undefined ? { selector: record(r.selector, `${path}.selector`) } : {}),
    ...(r.images !== undefined ? { images: images(r.images, `${path}.images`) } : {}),
    behaviour: behaviour(r.behaviour ?? {}, `${path}.behaviour`),
  };
}

/** The cluster options a SimulatedCluster document describes. */
export function parseClusterDocument(doc: unknown, source: string): ClusterOptions {
  const r = record(doc, source);
  if (r.kind !== "SimulatedCluster") fail(`${source}: kind`, '"SimulatedCluster"');
  const numbers: Record<string, number> = {};
  for (const k of ["heartbeatMs", "nodeMonitorGraceMs", "restartBackoffMs", "maxRestartBackoffMs"])
    if (r[k] !== undefined) numbers[k] = count(r[k], `${source}: ${k}`);
  return {
    ...numbers,
    ...(r.nodes !== undefined
      ? { nodes: list(r.nodes, `${source}: nodes`).map((n, i) => node(n, `${source}: nodes[${i}]`)) }
      : {}),
    ...(r.stages !== undefined
      ? { stages: list(r.stages, `${source}: stages`).map((s, i) => stage(s, `${source}: stages[${i}]`)) }
      : {}),
  };
}
