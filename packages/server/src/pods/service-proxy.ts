/**
 * The reference server's `services/{[scheme:]name[:port]}/proxy[/path]`: like kube-apiserver it
 * reads the Service's EndpointSlices (label `kubernetes.io/service-name`), takes a ready endpoint of a
 * slice that has the port the path names (a Service port number stands for that port's name; no
 * port means the unnamed one), and reaches the endpoint's pod (`targetRef`) on that port through
 * the pod's `http` hook. EndpointSlices are not made by the reference server: whoever creates the
 * Service writes them, as on a cluster without an endpoint-slice controller.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors, failure } from "../api/status.js";
import { admitConnect } from "../endpoints/handlers/connect.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import { matchingPath } from "../endpoints/route-extension.js";
import { type AuthSettings, authorize, type UserInfo } from "../http/auth.js";
import { readyEndpoints, servicePortName } from "../registry/discovery/service-endpoints.js";
import { proxyOptions, servePodHttp, verbOf } from "./pod-http.js";
import type { PodRuntime } from "./runtime.js";

const SERVICE_PROXY = /^\/api\/v1\/namespaces\/([^/]+)\/services\/([^/]+)\/proxy(\/.*)?$/;

interface Target {
  pod: string;
  port: number;
}
type Json = Record<string, unknown>;

function stored(ctx: HandlerContext, group: string, version: string, resource: string, key: string) {
  const r = ctx.resources.find(group, version, resource);
  return r ? (ctx.store.get(r.bucket, key) as Json | undefined) : undefined;
}

/**
 * The endpoint port name a proxy path's port means: a number is the Service port's (503 when the
 * Service has no such port), anything else is a name already, and none is the unnamed port.
 */
function portName(service: Json, name: string, wanted: string): string {
  if (!/^\d+$/.test(wanted)) return wanted;
  const port = servicePortName(service, wanted);
  if (port === undefined)
    throw failure(503, "ServiceUnavailable", `no service port ${wanted} found for service "${name}"`);
  return port;
}

/** A ready pod endpoint of the Service's EndpointSlices with a port of that name. */
function endpointFor(
  ctx: HandlerContext,
  namespace: string,
  service: string,
  name: string,
): Target | undefined {
  const slices = ctx.resources.find("discovery.k8s.io", "v1", "endpointslices");
  const all = slices ? (ctx.store.list(slices.bucket, { prefix: `${namespace}/` }).items as Json[]) : [];
  const ready = readyEndpoints(all, service, name).find((e) => e.targetRef?.kind === "Pod");
  return ready ? { pod: String(ready.targetRef?.name), port: ready.port } : undefined;
}

export function serviceProxyRoutes(runtime: PodRuntime, ctx: HandlerContext, auth: AuthSettings) {
  return matchingPath(
    SERVICE_PROXY,
    async (req: IncomingMessage, res: ServerResponse, url: URL, user: UserInfo, m): Promise<boolean> => {
      const namespace = decodeURIComponent(m[1] as string);
      const parts = decodeURIComponent(m[2] as string).split(":");
      if (parts.length === 3) parts.shift();
      const [name = "", wanted = ""] = parts;
      const verb = verbOf(req, "services/proxy");
      authorize(user, auth, { verb, group: "", resource: "services", subresource: "proxy", namespace, name });
      // Admitted as CONNECT before the Service is looked up, as upstream's connect handler does.
      const options = proxyOptions("ServiceProxyOptions", m[3]);
      const raw = decodeURIComponent(m[2] as string);
      await admitConnect(ctx, {
        resource: "services",
        subresource: "proxy",
        namespace,
        name: raw,
        options,
        user,
      });
      const service = stored(ctx, "", "v1", "services", `${namespace}/${name}`);
      if (!service) throw errors.notFound({ group: "", resource: "services" }, name);
      const target = endpointFor(ctx, namespace, name, portName(service, name, wanted));
      if (!target) throw failure(503, "ServiceUnavailable", `no endpoints available for service "${name}"`);
      const object = runtime.pod(namespace, target.pod);
      const ref = { namespace, pod: target.pod, object };
      servePodHttp(runtime, ref, target.port, req, res, `${m[3] ?? "/"}${url.search}`);
      return true;
    },
  );
}
