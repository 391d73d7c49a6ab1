/**
 * What a fresh cluster has before anyone writes: the system namespaces the
 * apiserver creates itself, then the caller's seed objects.
 */
import { StatusError } from "./api/status.js";
import type { HandlerContext } from "./endpoints/handlers/context.js";
import { createObject, updateObject } from "./endpoints/handlers/write.js";

const SYSTEM_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"];

/** Creates the system namespaces and the seed objects; returns one message per rejected seed object. */
export async function bootstrap(
  ctx: HandlerContext,
  seed: readonly Record<string, unknown>[],
): Promise<string[]> {
  const ns = ctx.resources.find("", "v1", "namespaces");
  if (!ns) throw new Error("the built-in resource table has no namespaces");
  for (const name of SYSTEM_NAMESPACES)
    await createObject(ctx, ns, {
      namespace: undefined,
      query: new URLSearchParams(),
      body: { metadata: { name } },
    });
  const problems: string[] = [];
  for (const obj of seed) {
    const [group, version] = splitApiVersion(String(obj.apiVersion ?? ""));
    const r = [...ctx.resources.all()].find(
      (x) => x.group === group && x.version === version && x.kind === obj.kind,
    );
    const meta = (obj.metadata ?? {}) as { name?: string; namespace?: string };
    const label = `${String(obj.kind)} ${meta.namespace ? `${meta.namespace}/` : ""}${meta.name ?? ""}`;
    if (!r) {
      problems.push(`${label}: no served resource for ${String(obj.apiVersion)} ${String(obj.kind)}`);
      continue;
    }
    try {
      await createObject(ctx, r, {
        namespace: r.namespaced ? (meta.namespace ?? "default") : undefined,
        query: new URLSearchParams(),
        body: obj,
      });
    } catch (e) {
      problems.push(`${label}: ${e instanceof StatusError ? e.message : String(e)}`);
    }
  }
  return problems;
}

/**
 * The kube-system ConfigMaps kube-apiserver writes at start: the client CA for extension servers
 * (client certificates are signed by the server's CA here) and the date legacy ServiceAccount
 * token tracking began.
 */
export async function bootstrapSystemConfigMaps(ctx: HandlerContext, clientCaPem: string | undefined) {
  const configMaps = ctx.resources.find("", "v1", "configmaps");
  if (!configMaps) return;
  const today = new Date(ctx.now()).toISOString().slice(0, 10);
  const objects = [
    ...(clientCaPem
      ? [
          {
            metadata: { name: "extension-apiserver-authentication" },
            data: { "client-ca-file": clientCaPem },
          },
        ]
      : []),
    { metadata: { name: "kube-apiserver-legacy-service-account-token-tracking" }, data: { since: today } },
  ];
  for (const body of objects)
    await createObject(ctx, configMaps, {
      namespace: "kube-system",
      query: new URLSearchParams(),
      body,
      userAgent: "kube-apiserver",
    });
}

/**
 * The two PriorityClasses kube-apiserver creates at start (its scheduling bootstrap), which the
 * Priority admission plugin resolves like any other class.
 */
export async function bootstrapSystemPriorityClasses(ctx: HandlerContext) {
  const classes = ctx.resources.find("scheduling.k8s.io", "v1", "priorityclasses");
  if (!classes) return;
  const bodies = [
    {
      metadata: { name: "system-node-critical" },
      value: 2_000_001_000,
      description: "Used for system critical pods that must not be moved from their current node.",
    },
    {
      metadata: { name: "system-cluster-critical" },
      value: 2_000_000_000,
      description:
        "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
    },
  ];
  for (const body of bodies)
    await createObject(ctx, classes, {
      namespace: undefined,
      query: new URLSearchParams(),
      body,
      userAgent: "kube-apiserver",
    });
}

/**
 * `default/kubernetes`: the Service kube-apiserver keeps for itself (the first IP of the service range,
 * port 443 named https, targeting the port it serves on); in-cluster clients and upstream's e2e
 * framework look it up. kube-apiserver also publishes its address as the Service's endpoints, but
 * endpoint validation refuses loopback addresses, so a server on 127.0.0.1 (this one, and
 * kube-apiserver in test:real) publishes none.
 */
export async function bootstrapKubernetesService(ctx: HandlerContext, port: number) {
  const services = ctx.resources.find("", "v1", "services");
  if (!services) return;
  const body = {
    metadata: { name: "kubernetes", labels: { component: "apiserver", provider: "kubernetes" } },
    spec: {
      type: "ClusterIP",
      clusterIP: KUBERNETES_SERVICE_IP,
      sessionAffinity: "None",
      ports: [{ name: "https", port: 443, protocol: "TCP", targetPort: port }],
    },
  };
  const request = { namespace: "default", query: new URLSearchParams(), body, userAgent: "kube-apiserver" };
  await createObject(ctx, services, request);
}

/** The first address of the service range (registry/core/service-allocation.ts keeps it free). */
const KUBERNETES_SERVICE_IP = "10.96.0.1";
/** The range registry/core/service-allocation.ts allocates cluster IPs from. */
const SERVICE_CIDR = "10.96.0.0/12";

/**
 * The default ServiceCIDR `kubernetes` kube-apiserver keeps for its service range, marked Ready as
 * its default-ServiceCIDR controller marks it; upstream's e2e framework reads it.
 */
export async function bootstrapDefaultServiceCidr(ctx: HandlerContext) {
  const cidrs = ctx.resources.find("networking.k8s.io", "v1", "servicecidrs");
  if (!cidrs) return;
  const base = { namespace: undefined, query: new URLSearchParams(), userAgent: "kube-apiserver" };
  const body = { metadata: { name: "kubernetes" }, spec: { cidrs: [SERVICE_CIDR] } };
  const created = (await createObject(ctx, cidrs, { ...base, body })).body as Record<string, unknown>;
  const ready = {
    type: "Ready",
    status: "True",
    lastTransitionTime: new Date(ctx.now()).toISOString().replace(/\.\d+Z$/, "Z"),
    reason: "",
    message: "Kubernetes default Service CIDR is ready",
  };
  const status = { ...created, status: { conditions: [ready] } };
  await updateObject(ctx, cidrs, { ...base, name: "kubernetes", subresource: "status", body: status });
}

function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? ["", apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}
