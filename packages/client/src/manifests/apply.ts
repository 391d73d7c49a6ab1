/**
 * Applies a set of manifests with server-side apply in dependency order: namespaces and CRDs first
 * (waiting for each CRD to be Established), then the rest; optionally prunes objects that carry
 * the set's labels but are no longer in it.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { ConflictPolicy } from "@kubesdk/apply";
import type { DynamicObject, Kube } from "../kube.js";
import { PodIoError } from "../pods/errors.js";
import type { ResourceClient } from "../resource-client.js";

export interface ApplyManifestsOptions {
  /** Field manager of every apply (required by server-side apply). */
  readonly fieldManager: string;
  /** What to do about fields other managers own, as `apply`'s `conflicts` (default "fail"). */
  readonly conflicts?: ConflictPolicy;
  /** Namespace for namespaced objects that name none (default: the client's). */
  readonly namespace?: string;
  /**
   * Delete objects of the applied kinds that carry all these labels but are not in the set
   * (the labels are also added to every applied object).
   */
  readonly prune?: { readonly labels: Readonly<Record<string, string>> };
  /** How long to wait for a CRD to become Established (default 30 000 ms). */
  readonly crdTimeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface ApplyManifestsResult {
  /** What the server returned for each applied object, in apply order. */
  readonly applied: readonly DynamicObject[];
  /** `kind/namespace/name` of each pruned object. */
  readonly pruned: readonly string[];
}

// Kinds others depend on, applied first in this order; everything else keeps its input order.
const FIRST = [
  "Namespace",
  "CustomResourceDefinition",
  "PriorityClass",
  "StorageClass",
  "ServiceAccount",
  "ClusterRole",
  "Role",
  "ClusterRoleBinding",
  "RoleBinding",
  "ConfigMap",
  "Secret",
  "PersistentVolume",
  "PersistentVolumeClaim",
  "Service",
];

function rank(obj: DynamicObject): number {
  const i = FIRST.indexOf(obj.kind as string);
  return i < 0 ? FIRST.length : i;
}

/** Sorts manifests into apply order (stable within a rank). */
export function orderManifests(objects: readonly DynamicObject[]): DynamicObject[] {
  return objects
    .map((o, i) => [o, i] as const)
    .sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1])
    .map(([o]) => o);
}

export async function applyManifests(
  kube: Kube,
  objects: readonly DynamicObject[],
  options: ApplyManifestsOptions,
): Promise<ApplyManifestsResult> {
  const applied: DynamicObject[] = [];
  const clients = new Map<string, ResourceClient<DynamicObject>>();
  const clientFor = async (obj: DynamicObject) => {
    const key = `${obj.apiVersion}/${obj.kind}`;
    let client = clients.get(key);
    if (client === undefined) {
      client = await kube.discover({ apiVersion: obj.apiVersion as string, kind: obj.kind as string });
      clients.set(key, client);
    }
    return client;
  };
  const namespaceOf = (obj: DynamicObject) => obj.metadata?.namespace ?? options.namespace ?? kube.namespace;
  for (const obj of orderManifests(objects)) {
    const client = await clientFor(obj);
    const labeled = withLabels(obj, options.prune?.labels);
    const ns = client.target.namespaced ? { namespace: namespaceOf(obj) } : {};
    const result = await client.apply(labeled as Parameters<typeof client.apply>[0], {
      fieldManager: options.fieldManager,
      ...(options.conflicts !== undefined ? { conflicts: options.conflicts } : {}),
      ...ns,
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    });
    applied.push(result);
    if (obj.kind === "CustomResourceDefinition")
      await waitEstablished(client, obj.metadata?.name as string, options);
  }
  const pruned = options.prune ? await prune(objects, clients, options.prune.labels, namespaceOf) : [];
  return { applied, pruned };
}

function withLabels(obj: DynamicObject, labels: Readonly<Record<string, string>> | undefined): DynamicObject {
  if (labels === undefined) return obj;
  return {
    ...obj,
    metadata: { ...obj.metadata, labels: { ...obj.metadata?.labels, ...labels } },
  } as DynamicObject;
}

async function waitEstablished(
  client: ResourceClient<DynamicObject>,
  name: string,
  options: ApplyManifestsOptions,
): Promise<void> {
  const deadline = Date.now() + (options.crdTimeoutMs ?? 30_000);
  for (;;) {
    const crd = (await client.get(name)) as { status?: { conditions?: { type: string; status: string }[] } };
    if (crd.status?.conditions?.some((c) => c.type === "Established" && c.status === "True")) return;
    if (Date.now() > deadline)
      throw new PodIoError("WAIT_TIMEOUT", `CustomResourceDefinition ${name} is not Established`);
    await delay(100, undefined, options.signal !== undefined ? { signal: options.signal } : {});
  }
}

async function prune(
  objects: readonly DynamicObject[],
  clients: ReadonlyMap<string, ResourceClient<DynamicObject>>,
  labels: Readonly<Record<string, string>>,
  namespaceOf: (obj: DynamicObject) => string,
): Promise<string[]> {
  const keep = new Set(objects.map((o) => `${o.apiVersion}/${o.kind}/${namespaceOf(o)}/${o.metadata?.name}`));
  const pruned: string[] = [];
  for (const [key, client] of clients) {
    const namespaces = client.target.namespaced
      ? [...new Set(objects.filter((o) => `${o.apiVersion}/${o.kind}` === key).map(namespaceOf))]
      : [undefined];
    for (const namespace of namespaces) {
      const list = await client.list({
        labelSelector: labels,
        ...(namespace !== undefined ? { namespace } : {}),
      });
      for (const item of list.items) {
        const name = item.metadata?.name as string;
        const itemNs = item.metadata?.namespace ?? namespace ?? "";
        const id = `${key}/${client.target.namespaced ? itemNs : namespaceOfCluster(objects, key, name, namespaceOf)}/${name}`;
        if (keep.has(id)) continue;
        await client.delete(name, namespace !== undefined ? { namespace } : {});
        pruned.push(`${item.kind ?? key}/${namespace ?? ""}/${name}`.replace("//", "/"));
      }
    }
  }
  return pruned;
}

// Cluster-scoped objects are kept by name whatever namespace the set's defaults would give them.
function namespaceOfCluster(
  objects: readonly DynamicObject[],
  key: string,
  name: string,
  namespaceOf: (obj: DynamicObject) => string,
): string {
  const match = objects.find((o) => `${o.apiVersion}/${o.kind}` === key && o.metadata?.name === name);
  return match ? namespaceOf(match) : "";
}
