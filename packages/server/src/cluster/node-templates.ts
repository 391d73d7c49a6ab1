/**
 * A simulated node's start-up writes (its Node, the Node's Ready status, its Lease, then the node
 * lifecycle's removal of the not-ready taint) in the form the write path stores for the kubelet's
 * and kube-controller-manager's requests, committed without the write path on the in-process server
 * (ClusterAccess's `templates`) when nothing configured could change them: the write path's first
 * use was the largest share of a fresh process's first start (docs/performance-history.md, sessions
 * 19 and 20). Only a node with no labels, taints or capacity of its own is templated; other
 * configurations go through the write path, which validates them and admits them as configured.
 * packages/server/test/node-templates.test.ts compares both, field order included.
 */
import type { coreV1 } from "@kubesdk/models";
import { type Fields, mapFields, updateEntry as update } from "../controllers/stored-templates.js";
import type { StoredObject } from "../storage/mvcc.js";

/** Names the write path accepts for a Node without question (a DNS label). */
const PLAIN_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export interface NodeTemplateInput {
  readonly name: string;
  readonly labels?: unknown;
  readonly taints?: readonly unknown[];
  readonly capacity?: unknown;
}

/** Whether the node's stored form is a template's: a plain name and nothing of its own. */
export function templatedNode(config: NodeTemplateInput): boolean {
  return (
    PLAIN_NAME.test(config.name) &&
    config.labels === undefined &&
    (config.taints === undefined || config.taints.length === 0) &&
    config.capacity === undefined
  );
}

/** mapFields for a map's keys, sorted as managedFields lists them. */
function keys(names: readonly string[]): Fields {
  return mapFields([...names].sort());
}

/**
 * The Node as created: the kubelet's labels and pod CIDR, and the not-ready taint TaintNodesByCondition
 * admission adds to a new node.
 */
export function createdNode(name: string, index: number, uid: string, time: string): StoredObject {
  const cidr = `10.244.${index}.0/24`;
  const labels = {
    "kubernetes.io/hostname": name,
    "kubernetes.io/os": "linux",
    "kubernetes.io/arch": "amd64",
  };
  const fields = {
    "f:metadata": { "f:labels": keys(Object.keys(labels)) },
    // A list the create adds is owned itself (`.`), as by a create's managed fields.
    "f:spec": {
      "f:podCIDR": {},
      "f:podCIDRs": { ".": {}, [`v:${JSON.stringify(cidr)}`]: {} },
    },
  };
  return {
    metadata: {
      name,
      labels,
      uid,
      creationTimestamp: time,
      managedFields: [update("kubelet", "v1", time, fields)],
    },
    spec: {
      podCIDR: cidr,
      podCIDRs: [cidr],
      taints: [{ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" }],
    },
    apiVersion: "v1",
    kind: "Node",
    // What Go's encoding writes for a status without values (openapi/go-written.ts).
    status: { daemonEndpoints: { kubeletEndpoint: { Port: 0 } }, nodeInfo: { ...EMPTY_NODE_INFO } },
  };
}

/**
 * Spelled out rather than made by openapi/go-written.ts: that would read the Go field facts during a
 * process's first start; the node-template comparison tests hold it to what the write path stores.
 */
const EMPTY_NODE_INFO = {
  machineID: "",
  systemUUID: "",
  bootID: "",
  kernelVersion: "",
  osImage: "",
  containerRuntimeVersion: "",
  kubeletVersion: "",
  kubeProxyVersion: "",
  operatingSystem: "",
  architecture: "",
};

/** The fields of a list the update adds (so owned itself), its items keyed by `type`, each item's own fields listed. */
function byType(items: readonly Fields[]): Fields {
  const entries = items.map((item) => [`k:${JSON.stringify({ type: item.type })}`, keys(Object.keys(item))]);
  return { ".": {}, ...Object.fromEntries(entries.sort(([a], [b]) => (String(a) < String(b) ? -1 : 1))) };
}

/** The created Node with the kubelet's status posted (a status update's managedFields entry added). */
export function nodeWithStatus(node: StoredObject, status: coreV1.NodeStatus, time: string): StoredObject {
  const metadata = node.metadata as Fields & { managedFields: Fields[] };
  // The created status already has the daemon endpoints and node info, their values zero: the
  // kubelet owns the values it changes, not the structs.
  const info = Object.entries(status.nodeInfo ?? {}).filter(([, v]) => v !== "");
  const fields = {
    "f:status": {
      "f:addresses": byType((status.addresses ?? []) as unknown as Fields[]),
      "f:allocatable": keys(Object.keys(status.allocatable ?? {})),
      "f:capacity": keys(Object.keys(status.capacity ?? {})),
      "f:conditions": byType((status.conditions ?? []) as unknown as Fields[]),
      "f:daemonEndpoints": { "f:kubeletEndpoint": { "f:Port": {} } },
      "f:nodeInfo": Object.fromEntries(
        info
          .map(([k]) => `f:${k}`)
          .sort()
          .map((k) => [k, {}]),
      ),
      "f:phase": {},
    },
  };
  const entry = { ...update("kubelet", "v1", time, fields), subresource: "status" };
  return {
    ...node,
    metadata: { ...metadata, managedFields: [...metadata.managedFields, entry] },
    status: status as unknown as Fields,
  };
}

/** The node's Lease in `kube-node-lease` as the kubelet creates it, owned by its Node. */
export function createdLease(node: StoredObject, spec: Fields, uid: string, time: string): StoredObject {
  const name = String(node.metadata.name);
  const owner = { apiVersion: "v1", kind: "Node", name, uid: String(node.metadata.uid) };
  const apiVersion = "coordination.k8s.io/v1";
  const fields = {
    "f:metadata": { "f:ownerReferences": { ".": {}, [`k:${JSON.stringify({ uid: owner.uid })}`]: {} } },
    // The spec struct itself is not listed: the Lease has one from the start.
    "f:spec": Object.fromEntries(
      Object.keys(spec)
        .sort()
        .map((k) => [`f:${k}`, {}]),
    ),
  };
  return {
    metadata: {
      name,
      namespace: "kube-node-lease",
      ownerReferences: [owner],
      uid,
      creationTimestamp: time,
      managedFields: [update("kubelet", apiVersion, time, fields)],
    },
    spec: { ...spec },
    apiVersion,
    kind: "Lease",
  };
}

/**
 * The Nodes as the kubelet's templates last stored them (created, then Ready). While the store
 * still returns one of these objects nobody has written the node since, so its stored form is known
 * and the node lifecycle's untaint of it can be a template too. Weak: a replaced or deleted node
 * and a stopped server's store are collected as before.
 */
const templatedNodes = new WeakSet<StoredObject>();

/** Notes a Node committed from nodeWithStatus (the store's stamped object). */
export function rememberTemplatedNode(node: StoredObject): void {
  templatedNodes.add(node);
}

/** Whether this stored Node is still the one the kubelet's templates committed. */
export function isTemplatedNode(node: object): boolean {
  return templatedNodes.has(node as StoredObject);
}

/**
 * The templated Ready node once kube-controller-manager's node lifecycle removed the not-ready
 * taint: the taints gone (an empty omitempty list is no field, as the write path stores it). No
 * manager owned them (admission added them), so the update leaves no entry of its own.
 */
export function untaintedNode(node: StoredObject): StoredObject {
  const { taints: _, ...spec } = node.spec as Fields;
  return { ...node, spec };
}
