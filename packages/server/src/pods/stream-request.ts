/**
 * The pod stream request (`pods/exec`, `pods/attach`, `pods/portforward` on the API path), parsed,
 * authenticated and authorized once for both upgrade kinds (WebSocket and SPDY/3.1).
 */
import type { IncomingMessage } from "node:http";
import { errors } from "../api/status.js";
import { type AuthSettings, authenticate, authorize } from "../http/auth.js";

const STREAM_PATH = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/(exec|attach|portforward)$/;

export interface PodStreamRequest {
  url: URL;
  namespace: string;
  pod: string;
  sub: "exec" | "attach" | "portforward";
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
  return { url, namespace, pod, sub };
}
