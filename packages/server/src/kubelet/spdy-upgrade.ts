/**
 * The SPDY/3.1 upgrade (`Upgrade: SPDY/3.1`, `X-Stream-Protocol-Version`), shared by the kubelet
 * endpoint and the reference server's pod API paths (kubectl falls back to it when a WebSocket
 * upgrade fails, and real apiservers still accept it from clients).
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { queryBool } from "../api/query-bool.js";
import { errors } from "../api/status.js";
import type { AuthSettings } from "../http/auth.js";
import type { PodRuntime } from "../pods/runtime.js";
import { authorizePodStream } from "../pods/stream-request.js";
import { serveSpdyProcess } from "./spdy-exec.js";
import { serveSpdyPortForward } from "./spdy-port-forward.js";
import { SpdySession } from "./spdy-session.js";

export const EXEC_PROTOCOL = "v4.channel.k8s.io";
export const PORT_FORWARD_PROTOCOL = "portforward.k8s.io";

export function isSpdyUpgrade(req: IncomingMessage): boolean {
  return (req.headers.upgrade ?? "").toLowerCase().startsWith("spdy/3.1");
}

/** Answers 101 with `protocol` if the client offered it (else throws) and starts a session. */
export function acceptSpdy(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  protocol: string,
): SpdySession {
  const offered = String(req.headers["x-stream-protocol-version"] ?? "")
    .split(",")
    .map((p) => p.trim());
  if (!offered.includes(protocol))
    throw errors.badRequest(
      `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(" ")}], server supports [${protocol}]`,
    );
  socket.write(
    "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n" +
      `X-Stream-Protocol-Version: ${protocol}\r\n\r\n`,
  );
  if (head.length > 0) socket.unshift(head);
  return new SpdySession(socket);
}

/** A SPDY upgrade on the API's pods/exec, pods/attach or pods/portforward (reference server). */
export function serveApiSpdyUpgrade(
  runtime: PodRuntime,
  auth: AuthSettings,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): void {
  const { url, namespace, pod, sub } = authorizePodStream(req, auth);
  if (sub === "portforward") {
    runtime.pod(namespace, pod);
    serveSpdyPortForward(runtime, acceptSpdy(req, socket, head, PORT_FORWARD_PROTOCOL), { namespace, pod });
    return;
  }
  const q = url.searchParams;
  const setup = processSetup(runtime, sub, namespace, pod, q.get("container"), q, false);
  serveSpdyProcess(runtime, acceptSpdy(req, socket, head, EXEC_PROTOCOL), setup);
}

/**
 * The process an exec/attach request asks for. Kubelets name the flags `input`, `output`, `error`;
 * the API `stdin`, `stdout`, `stderr`.
 */
export function processSetup(
  runtime: PodRuntime,
  kind: "exec" | "attach",
  namespace: string,
  pod: string,
  container: string | null,
  q: URLSearchParams,
  kubeletNames: boolean,
) {
  const flag = (name: string) => queryBool(q, name);
  const [stdin, stdout, stderr] = kubeletNames ? ["input", "output", "error"] : ["stdin", "stdout", "stderr"];
  const tty = flag("tty");
  const command = q.getAll("command");
  const ref = runtime.resolve(namespace, pod, container);
  if (kind === "exec" && command.length === 0)
    throw errors.badRequest("you must specify at least one command for the container");
  if (!flag(stdin as string) && !flag(stdout as string) && !flag(stderr as string))
    throw errors.badRequest("you must specify at least 1 of stdin, stdout, stderr");
  return {
    kind,
    ref,
    command,
    tty,
    stdin: flag(stdin as string),
    stdout: flag(stdout as string),
    stderr: flag(stderr as string) && !tty,
  };
}
