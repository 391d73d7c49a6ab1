/**
 * WebSocket upgrades of the pod simulation: `exec` and `attach` speak the channel protocol
 * (`v5.channel.k8s.io`, `v4.channel.k8s.io`), `portforward` the port-prefixed v4 framing. A
 * request that cannot be served is answered with a Status body before any upgrade.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { createWebSocketStream, type WebSocket, WebSocketServer } from "ws";
import { queryBool } from "../api/query-bool.js";
import { errors, StatusError } from "../api/status.js";
import type { AuthSettings } from "../http/auth.js";
import { serveSpdyPortForward } from "../kubelet/spdy-port-forward.js";
import { SpdySession } from "../kubelet/spdy-session.js";
import { isSpdyUpgrade, serveApiSpdyUpgrade } from "../kubelet/spdy-upgrade.js";
import { servePortForward } from "./port-forward.js";
import { serveProcess } from "./process.js";
import type { PodRuntime } from "./runtime.js";
import { authorizePodStream } from "./stream-request.js";

export const CHANNEL_PROTOCOLS = ["v5.channel.k8s.io", "v4.channel.k8s.io"];
export const PORT_FORWARD_PROTOCOLS = ["v4.channel.k8s.io", "portforward.k8s.io"];
/** kubectl's port-forward: SPDY/3.1 frames tunnelled in binary WebSocket messages. */
export const SPDY_TUNNEL_PROTOCOL = "SPDY/3.1+portforward.k8s.io";

/**
 * Handles the HTTP server's `upgrade` event; `admit` (the API server's, not a kubelet's) admits the
 * request first and throws or rejects with its refusal.
 */
export function podUpgradeHandler(
  runtime: PodRuntime,
  auth: AuthSettings,
  admit?: (req: IncomingMessage) => void | Promise<void>,
) {
  // `ws` refuses subprotocols that are not HTTP tokens, and "SPDY/3.1+portforward.k8s.io" has a
  // "/": such requests are upgraded without the header and the protocol is added to the response.
  const tunnels = new WeakSet<IncomingMessage>();
  // Made at the first upgrade: most servers never see one, and making it was part of every start.
  let server: WebSocketServer | undefined;
  const wss = (): WebSocketServer => {
    if (server) return server;
    server = new WebSocketServer({ noServer: true, perMessageDeflate: false });
    server.on("headers", (headers, req) => {
      if (tunnels.has(req)) headers.push(`Sec-WebSocket-Protocol: ${SPDY_TUNNEL_PROTOCOL}`);
    });
    return server;
  };
  const serve = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    try {
      // --- kubelet hook: SPDY/3.1 upgrades (kubectl's fallback) are served by the SPDY code ---
      if (isSpdyUpgrade(req)) {
        serveApiSpdyUpgrade(runtime, auth, req, socket, head);
        return;
      }
      const accept = prepare(runtime, auth, req);
      if (String(req.headers["sec-websocket-protocol"] ?? "").includes(SPDY_TUNNEL_PROTOCOL)) {
        delete req.headers["sec-websocket-protocol"];
        tunnels.add(req);
      }
      wss().handleUpgrade(req, socket, head, (ws) => accept(ws));
    } catch (err) {
      reject(socket, err);
    }
  };
  return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    let admitted: void | Promise<void>;
    try {
      admitted = admit?.(req);
    } catch (err) {
      reject(socket, err);
      return;
    }
    if (admitted)
      admitted.then(
        () => serve(req, socket, head),
        (err: unknown) => reject(socket, err),
      );
    else serve(req, socket, head);
  };
}

function prepare(runtime: PodRuntime, auth: AuthSettings, req: IncomingMessage): (ws: WebSocket) => void {
  if ((req.headers.upgrade ?? "").toLowerCase() !== "websocket") throw errors.notFoundPath();
  const { url, namespace, pod, sub } = authorizePodStream(req, auth);
  const offered = (req.headers["sec-websocket-protocol"] ?? "").split(",").map((p) => p.trim());
  const q = url.searchParams;
  if (sub === "portforward") {
    runtime.pod(namespace, pod);
    // --- kubelet hook: kubectl tunnels SPDY port-forward streams (ports in stream headers) ---
    if (offered.includes(SPDY_TUNNEL_PROTOCOL))
      return (ws) =>
        serveSpdyPortForward(runtime, new SpdySession(createWebSocketStream(ws)), { namespace, pod });
    if (!offered.some((p) => PORT_FORWARD_PROTOCOLS.includes(p)))
      throw errors.badRequest("port-forward needs the v4.channel.k8s.io or portforward.k8s.io subprotocol");
    const ports = q
      .getAll("ports")
      .flatMap((p) => p.split(","))
      .map(Number);
    if (ports.length === 0 || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535))
      throw errors.badRequest("at least one valid port (1..65535) is required");
    return (ws) => servePortForward(runtime, ws, { namespace, pod, ports });
  }
  const ref = runtime.resolve(namespace, pod, q.get("container"));
  const command = q.getAll("command");
  if (sub === "exec" && command.length === 0)
    throw errors.badRequest("you must specify at least one command for the container");
  const protocol = offered.find((p) => CHANNEL_PROTOCOLS.includes(p));
  if (protocol === undefined)
    throw errors.badRequest(`none of the offered subprotocols [${offered.join(", ")}] is supported`);
  const flag = (name: string) => queryBool(q, name);
  if (!flag("stdin") && !flag("stdout") && !flag("stderr"))
    throw errors.badRequest("you must specify at least 1 of stdin, stdout, stderr");
  const setup = {
    ref,
    command,
    tty: flag("tty"),
    stdin: flag("stdin"),
    stderr: flag("stderr") && !flag("tty"),
  };
  return (ws) => serveProcess(runtime, ws, { ...setup, kind: sub });
}

function reject(socket: Duplex, err: unknown): void {
  const status =
    err instanceof StatusError
      ? err.status
      : {
          kind: "Status",
          apiVersion: "v1",
          metadata: {},
          status: "Failure",
          message: String(err),
          reason: "InternalError",
          code: 500,
        };
  const body = JSON.stringify(status);
  const code = status.code ?? 500;
  socket.end(
    `HTTP/1.1 ${code} ${status.reason ?? "Error"}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
