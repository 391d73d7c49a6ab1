/**
 * The objects kube-apiserver writes for itself at start, built in their stored form and committed
 * straight to the store. Through the write path (type check, admission, defaulting, validation,
 * managed fields) they were most of a start's CPU before it could answer, and a process's first
 * start paid that path's warm-up for them (docs/performance-history.md, session 19). Only the
 * uid, the timestamps, the CA and the port differ between servers, so each object is a template
 * filled with those; packages/server/test/system-objects.test.ts checks that every one is what the
 * write path stores for the same request, field order included. The template machinery is shared
 * with the controllers' start-up objects (controllers/stored-templates.ts).
 */
import {
  type Fields,
  mapFields,
  type SystemObject,
  systemObject,
  updateEntry,
} from "./controllers/stored-templates.js";
import type { StoredObject } from "./storage/mvcc.js";

/** The two PriorityClasses of kube-apiserver's scheduling bootstrap. */
export function systemPriorityClasses(): SystemObject[] {
  const classes = [
    [
      "system-node-critical",
      2_000_001_000,
      "Used for system critical pods that must not be moved from their current node.",
    ],
    [
      "system-cluster-critical",
      2_000_000_000,
      "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
    ],
  ] as const;
  const apiVersion = "scheduling.k8s.io/v1";
  const fields = { "f:description": {}, "f:preemptionPolicy": {}, "f:value": {} };
  return classes.map(([name, value, description]) =>
    systemObject("scheduling.k8s.io", "priorityclasses", undefined, name, (uid, time) => ({
      metadata: {
        name,
        uid,
        creationTimestamp: time,
        managedFields: [updateEntry("kube-apiserver", apiVersion, time, fields)],
        // The strategy's prepare-for-create sets it, after the managed fields.
        generation: 1,
      },
      value,
      description,
      apiVersion,
      kind: "PriorityClass",
      preemptionPolicy: "PreemptLowerPriority",
    })),
  );
}

/** The namespaces the apiserver creates itself (no user agent: the manager is "unknown"). */
export function systemNamespaces(): SystemObject[] {
  const names = ["default", "kube-system", "kube-public", "kube-node-lease"];
  const fields = {
    // Defaulting's label is the creator's; the finalizer prepare-for-create adds is nobody's.
    "f:metadata": { "f:labels": mapFields(["kubernetes.io/metadata.name"]) },
  };
  return names.map((name) =>
    systemObject("", "namespaces", undefined, name, (uid, time) => ({
      metadata: {
        name,
        uid,
        creationTimestamp: time,
        labels: { "kubernetes.io/metadata.name": name },
        managedFields: [updateEntry("unknown", "v1", time, fields)],
      },
      apiVersion: "v1",
      kind: "Namespace",
      status: { phase: "Active" },
      spec: { finalizers: ["kubernetes"] },
    })),
  );
}

/**
 * The kube-system ConfigMaps: the client CA for extension servers (client certificates are signed
 * by the server's CA here) and the date legacy ServiceAccount token tracking began.
 */
export function systemConfigMaps(clientCaPem: string | undefined, today: string): SystemObject[] {
  const maps: [string, Record<string, string>][] = [
    ...(clientCaPem
      ? [
          ["extension-apiserver-authentication", { "client-ca-file": clientCaPem }] as [
            string,
            Record<string, string>,
          ],
        ]
      : []),
    ["kube-apiserver-legacy-service-account-token-tracking", { since: today }],
  ];
  return maps.map(([name, data]) =>
    systemObject("", "configmaps", "kube-system", name, (uid, time) => ({
      metadata: {
        name,
        namespace: "kube-system",
        uid,
        creationTimestamp: time,
        managedFields: [
          updateEntry("kube-apiserver", "v1", time, { "f:data": mapFields(Object.keys(data)) }),
        ],
      },
      data: { ...data },
      apiVersion: "v1",
      kind: "ConfigMap",
    })),
  );
}

/** The first address of the service range (registry/core/service-allocation.ts keeps it free). */
const KUBERNETES_SERVICE_IP = "10.96.0.1";
/** The range registry/core/service-allocation.ts allocates cluster IPs from. */
const SERVICE_CIDR = "10.96.0.0/12";

/**
 * `default/kubernetes`: the Service kube-apiserver keeps for itself (the first IP of the service range,
 * port 443 named https, targeting the port it serves on); in-cluster clients and upstream's e2e
 * framework look it up. kube-apiserver also publishes its address as the Service's endpoints, but
 * endpoint validation refuses loopback addresses, so a server on 127.0.0.1 (this one, and
 * kube-apiserver in test:real) publishes none.
 */
export function kubernetesService(port: number): SystemObject {
  const port443 = { ".": {}, "f:name": {}, "f:port": {}, "f:protocol": {}, "f:targetPort": {} };
  const fields = {
    "f:metadata": { "f:labels": mapFields(["component", "provider"]) },
    "f:spec": {
      // What the allocation adds (clusterIPs, ipFamilies, ipFamilyPolicy) is nobody's.
      "f:clusterIP": {},
      "f:internalTrafficPolicy": {},
      // A list the create adds is owned itself (`.`): the kind's zero object has no ports.
      "f:ports": { ".": {}, 'k:{"port":443,"protocol":"TCP"}': port443 },
      "f:sessionAffinity": {},
      "f:type": {},
    },
  };
  return systemObject("", "services", "default", "kubernetes", (uid, time) => ({
    metadata: {
      name: "kubernetes",
      labels: { component: "apiserver", provider: "kubernetes" },
      namespace: "default",
      uid,
      creationTimestamp: time,
      managedFields: [updateEntry("kube-apiserver", "v1", time, fields)],
    },
    spec: {
      type: "ClusterIP",
      clusterIP: KUBERNETES_SERVICE_IP,
      sessionAffinity: "None",
      ports: [{ name: "https", port: 443, protocol: "TCP", targetPort: port }],
      internalTrafficPolicy: "Cluster",
      clusterIPs: [KUBERNETES_SERVICE_IP],
      ipFamilies: ["IPv4"],
      ipFamilyPolicy: "SingleStack",
    },
    apiVersion: "v1",
    kind: "Service",
    // Go's encoding writes the non-pointer loadBalancer struct (openapi/go-written.ts).
    status: { loadBalancer: {} },
  }));
}

/**
 * The default ServiceCIDR `kubernetes` kube-apiserver keeps for its service range, as created;
 * `readyServiceCidr` is the status update its default-ServiceCIDR controller makes next.
 */
export function defaultServiceCidr(): SystemObject {
  const apiVersion = "networking.k8s.io/v1";
  return systemObject("networking.k8s.io", "servicecidrs", undefined, "kubernetes", (uid, time) => ({
    metadata: {
      name: "kubernetes",
      uid,
      creationTimestamp: time,
      managedFields: [updateEntry("kube-apiserver", apiVersion, time, { "f:spec": { "f:cidrs": {} } })],
    },
    spec: { cidrs: [SERVICE_CIDR] },
    apiVersion,
    kind: "ServiceCIDR",
    status: {},
  }));
}

/** The created ServiceCIDR marked Ready, with the status writer's managedFields entry. */
export function readyServiceCidr(created: StoredObject, time: string): StoredObject {
  const metadata = created.metadata as Fields & { managedFields: Fields[] };
  const condition = {
    ".": {},
    "f:lastTransitionTime": {},
    "f:message": {},
    "f:reason": {},
    "f:status": {},
    "f:type": {},
  };
  // The status struct was there (`{}`); the conditions list it adds is owned itself.
  const fields = { "f:status": { "f:conditions": { ".": {}, 'k:{"type":"Ready"}': condition } } };
  const entry = {
    ...updateEntry("kube-apiserver", "networking.k8s.io/v1", time, fields),
    subresource: "status",
  };
  const ready = {
    type: "Ready",
    status: "True",
    lastTransitionTime: time,
    reason: "",
    message: "Kubernetes default Service CIDR is ready",
  };
  return {
    ...created,
    metadata: { ...metadata, managedFields: [...metadata.managedFields, entry] },
    status: { conditions: [ready] },
  };
}
