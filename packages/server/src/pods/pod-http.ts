/**
 * HTTP into pods: the handler of a pod's port (the `http` hook, or an echo server), and the
 * reference server's `pods/{name}[:port]/proxy[/path]` route, which hands the request to that
 * handler in-process (a real kube-apiserver dials the pod IP instead; kubelet/pod-network.ts
 * serves the same handlers on a routable address for it).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors } from "../api/status.js";
import { admitConnect } from "../endpoints/handlers/connect.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import { matchingPath } from "../endpoints/route-extension.js";
import { type AuthSettings, authorize, type UserInfo } from "../http/auth.js";
import type { PodRuntime } from "./runtime.js";
import type { PodHttpHandler, PodRef } from "./types.js";

const POD_PROXY = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/proxy(\/.*)?$/;
/** The verb a proxied request is authorized as, by method (upstream's request info). */
const VERBS: Readonly<Record<string, string>> = {
  GET: "get",
  HEAD: "get",
  OPTIONS: "get",
  POST: "create",
  PUT: "update",
  PATCH: "patch",
  DELETE: "delete",
};

/** The verb a proxy request is authorized as; other methods are 405 like upstream. */
export function verbOf(req: IncomingMessage, resource: string): string {
  const verb = VERBS[req.method ?? "GET"];
  if (verb === undefined) throw errors.methodNotSupported({ group: "", resource }, "get");
  return verb;
}

/** The default pod port: `<METHOD> <path>` on the first line, then the request body. */
export const echoHttp: PodHttpHandler = (req, res) => {
  res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
  res.write(`${req.method} ${req.url}\n`);
  req.pipe(res);
};

/** The handler of a pod's port: the `http` hook's, or the echo server. */
export function podHttpHandler(runtime: PodRuntime, pod: PodRef, port: number): PodHttpHandler {
  return runtime.options.http?.(pod, port) ?? echoHttp;
}

/** Splits `[scheme:]name[:port]` of a proxy path; the port defaults to 80 as for an HTTP URL. */
export function proxyName(raw: string): { name: string; port: number } {
  const parts = raw.split(":");
  if (parts.length === 3 && (parts[0] === "http" || parts[0] === "https")) parts.shift();
  const [name = "", port = "80"] = parts;
  const n = Number(port);
  if (parts.length > 2 || !/^\d+$/.test(port) || n < 1 || n > 65535)
    throw errors.badRequest(`invalid port in ${JSON.stringify(raw)}`);
  return { name, port: n };
}

/** Serves a request to a pod's port with `url` (path and query inside the pod). */
export function servePodHttp(
  runtime: PodRuntime,
  pod: PodRef,
  port: number,
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
): void {
  const handler = podHttpHandler(runtime, pod, port);
  req.url = url;
  // The caller's credentials are for the API server, not the pod (upstream drops them too).
  delete req.headers.authorization;
  handler(req, res);
}

/** A proxy request's options object for admission (an empty path left out, as upstream's JSON). */
export function proxyOptions(
  kind: string,
  path: string | undefined,
): Record<string, unknown> & { kind: string } {
  const decoded = decodeURIComponent(path ?? "");
  return { kind, apiVersion: "v1", ...(decoded ? { path: decoded } : {}) };
}

/** The reference server's `pods/proxy` route: admitted as CONNECT (PodProxyOptions), then proxied. */
export function podProxyRoutes(runtime: PodRuntime, ctx: HandlerContext, auth: AuthSettings) {
  return matchingPath(
    POD_PROXY,
    async (req: IncomingMessage, res: ServerResponse, url: URL, user: UserInfo, m): Promise<boolean> => {
      const namespace = decodeURIComponent(m[1] as string);
      const { name, port } = proxyName(decodeURIComponent(m[2] as string));
      const verb = verbOf(req, "pods/proxy");
      authorize(user, auth, { verb, group: "", resource: "pods", subresource: "proxy", namespace, name });
      const options = proxyOptions("PodProxyOptions", m[3]);
      // Admitted under the name as the path gives it (with its port), as upstream.
      const raw = decodeURIComponent(m[2] as string);
      await admitConnect(ctx, {
        resource: "pods",
        subresource: "proxy",
        namespace,
        name: raw,
        options,
        user,
      });
      const object = runtime.pod(namespace, name);
      servePodHttp(runtime, { namespace, pod: name, object }, port, req, res, `${m[3] ?? "/"}${url.search}`);
      return true;
    },
  );
}
