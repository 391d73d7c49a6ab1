/**
 * The pod stream request (`pods/exec`, `pods/attach`, `pods/portforward` on the API path), parsed,
 * authenticated and authorized once for both upgrade kinds (WebSocket and SPDY/3.1), and admitted
 * as CONNECT with its options object before anything is connected (as upstream).
 */
import type { IncomingMessage } from "node:http";
import { queryBool } from "../api/query-bool.js";
import { errors } from "../api/status.js";
import { admitConnect } from "../endpoints/handlers/connect.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import { type AuthSettings, authenticate, authorize, type UserInfo } from "../http/auth.js";

const STREAM_PATH = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/(exec|attach|portforward)$/;

export interface PodStreamRequest {
  url: URL;
  namespace: string;
  pod: string;
  sub: "exec" | "attach" | "portforward";
  user: UserInfo;
}

/** Throws a Status error when the path is not a pod stream path or the user may not `create` it. */
export function authorizePodStream(req: IncomingMessage, auth: AuthSettings): PodStreamRequest {
  const url = new URL(req.url ?? "/", "https://localhost");
  const m = STREAM_PATH.exec(url.pathname);
  if (!m) throw errors.notFoundPath();
  const user = authenticate(req, auth);
  const namespace = decodeURIComponent(m[1] as string);
  const pod = decodeURIComponent(m[2] as string);
  const sub = m[3] as PodStreamRequest["sub"];
  authorize(user, auth, {
    verb: "create",
    group: "",
    resource: "pods",
    subresource: sub,
    namespace,
    name: pod,
  });
  return { url, namespace, pod, sub, user };
}

const OPTIONS_KIND = {
  exec: "PodExecOptions",
  attach: "PodAttachOptions",
  portforward: "PodPortForwardOptions",
};

/** The request's options object as upstream decodes it from the query (false and empty left out). */
function streamOptions(
  sub: PodStreamRequest["sub"],
  q: URLSearchParams,
): Record<string, unknown> & { kind: string } {
  const options: Record<string, unknown> & { kind: string } = { kind: OPTIONS_KIND[sub], apiVersion: "v1" };
  if (sub === "portforward") {
    const ports = q
      .getAll("ports")
      .flatMap((p) => p.split(","))
      .map(Number);
    if (ports.length > 0) options.ports = ports;
    return options;
  }
  for (const flag of ["stdin", "stdout", "stderr", "tty"]) if (queryBool(q, flag)) options[flag] = true;
  const container = q.get("container");
  if (container) options.container = container;
  const command = q.getAll("command");
  if (sub === "exec" && command.length > 0) options.command = command;
  return options;
}

/** Admits a pod stream request as CONNECT; throws (or rejects with) the refusal. */
export function admitPodStream(
  ctx: HandlerContext,
  auth: AuthSettings,
  req: IncomingMessage,
): void | Promise<void> {
  const { url, namespace, pod, sub, user } = authorizePodStream(req, auth);
  const options = streamOptions(sub, url.searchParams);
  return admitConnect(ctx, { resource: "pods", subresource: sub, namespace, name: pod, options, user });
}
