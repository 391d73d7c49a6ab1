/**
 * The listening side: HTTPS with a fresh CA and serving certificate (or plain
 * HTTP when asked), and the answers given before a request reaches the
 * dispatcher — plain HTTP sent to the HTTPS port, methods Node's parser does
 * not know, CONNECT, malformed requests — each as upstream answers it rather
 * than a dropped connection.
 *
 * HTTPS offers HTTP/2 and HTTP/1.1 in TLS negotiation (ALPN h2, http/1.1) on
 * one port, as kube-apiserver does: multiplexing clients (client-go, kubectl)
 * take h2, others and every upgrade (exec, attach, port-forward: HTTP/1.1 only,
 * as upstream) stay on HTTP/1.1. Node's compatibility API gives HTTP/2 streams
 * the request/response shape the dispatcher serves, so it handles both.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createSecureServer, type Http2SecureServer, Http2ServerResponse } from "node:http2";
import {
  type AddressInfo,
  createServer as createNetServer,
  type Server as NetServer,
  type Socket,
} from "node:net";
import { failureStatus } from "@kubesdk/models";
import { type CertificateAuthority, createServerAuthority } from "../tls.js";

/** Go's http.Server limit on request headers (the request line included). */
const MAX_HEADER_BYTES = 1024 * 1024;
const TLS_HANDSHAKE = 0x16;

export interface Transport {
  /** The HTTP server, or the HTTPS server serving HTTP/2 and HTTP/1.1, requests are served by. */
  readonly server: Server | Http2SecureServer;
  /** What listens on the port (in front of `server` for HTTPS, to answer plain HTTP). */
  readonly listener: Server | NetServer;
  readonly ca: CertificateAuthority | undefined;
  /** Every connection accepted, so stopping ends them all (keep-alive, hijacked, upgraded). */
  readonly sockets: Set<Socket>;
}

function track(sockets: Set<Socket>, socket: Socket): void {
  sockets.add(socket);
  socket.once("close", () => sockets.delete(socket));
}

function statusResponse(code: number, text: string, reason: string, message: string): string {
  const body = JSON.stringify(failureStatus(code, reason, message));
  return `HTTP/1.1 ${code} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}\n`;
}

const METHOD_NOT_ALLOWED = statusResponse(
  405,
  "Method Not Allowed",
  "MethodNotAllowed",
  "the server does not allow this method on the requested resource",
);

/**
 * Requests Node's parser rejects get a Status instead of a bare 400 or a closed connection (on
 * HTTP/1.1 connections: the HTTPS server hands those to Node's HTTP/1.1 parser, which reports
 * here the same way).
 */
function answerUnparsed(server: Server | Http2SecureServer): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return;
    if (err.code === "HPE_INVALID_METHOD") socket.end(METHOD_NOT_ALLOWED);
    else if (err.code === "HPE_HEADER_OVERFLOW")
      socket.end(
        statusResponse(
          431,
          "Request Header Fields Too Large",
          "RequestHeaderFieldsTooLarge",
          "request header fields too large",
        ),
      );
    else socket.end(statusResponse(400, "Bad Request", "BadRequest", "malformed HTTP request"));
  });
  // HTTP/1.1 CONNECT hands over the socket; HTTP/2 CONNECT (a stream) comes with a response.
  server.on("connect", (_req: IncomingMessage, socket: Socket | Http2ServerResponse) => {
    if (socket instanceof Http2ServerResponse) {
      socket.writeHead(405, { "content-type": "application/json" });
      socket.end(METHOD_NOT_ALLOWED.slice(METHOD_NOT_ALLOWED.indexOf("\r\n\r\n") + 4));
    } else socket.end(METHOD_NOT_ALLOWED);
  });
}

/**
 * Ends a request's connection abruptly: its socket on HTTP/1.1, its whole session on HTTP/2
 * (Node refuses to touch an HTTP/2 session's socket through one of its requests).
 */
export function resetConnection(res: ServerResponse): void {
  if (res instanceof Http2ServerResponse) res.stream.session?.destroy();
  else res.socket?.destroy();
}

/** How long a new connection may stay silent before its first byte (Go's TLS handshake timeout). */
const FIRST_BYTE_TIMEOUT_MS = 10_000;

/**
 * Plain HTTP on the HTTPS port gets Go's answer; TLS goes on to the HTTPS server. Nagle's algorithm
 * is off on every connection, as Go's net package sets it and as node:http's server does by default
 * (net's does not): with it on, a small write behind unacknowledged data (a watch's last frame, an
 * HTTP/2 frame after DATA) waited for the client's delayed ACK, about 40 ms on Linux.
 */
function sniffingListener(https: Http2SecureServer, sockets: Set<Socket>): NetServer {
  return createNetServer({ pauseOnConnect: true, noDelay: true }, (socket) => {
    track(sockets, socket);
    // A peer that resets before its first byte must not crash the process (an 'error' event with no
    // listener throws); once handed on, the TLS layer reports errors on its own socket.
    socket.on("error", () => socket.destroy());
    // A peer that connects and sends nothing is dropped like an unfinished TLS handshake.
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
    socket.once("readable", () => {
      socket.setTimeout(0);
      const first: Buffer | null = socket.read(1);
      if (first === null) {
        socket.destroy();
        return;
      }
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE) {
        https.emit("connection", socket);
        socket.resume();
      } else socket.end("HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n");
    });
    socket.resume();
    socket.pause();
  });
}

export function createTransport(
  insecureHttp: boolean,
  host: string,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Transport {
  const serverOptions = { maxHeaderSize: MAX_HEADER_BYTES };
  const sockets = new Set<Socket>();
  if (insecureHttp) {
    const server = createHttpServer(serverOptions, handler);
    server.on("connection", (socket: Socket) => track(sockets, socket));
    answerUnparsed(server);
    return { server, listener: server, ca: undefined, sockets };
  }
  const ca = createServerAuthority();
  const serving = ca.issue({
    commonName: "kubesdk-reference-server",
    dnsNames: ["localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"],
    ipAddresses: ["127.0.0.1", "::1", ...(host !== "127.0.0.1" && /^[\d.:]+$/.test(host) ? [host] : [])],
    usage: "server",
  });
  const tlsOptions = {
    ...serverOptions,
    key: serving.keyPem,
    cert: serving.certPem,
    ca: ca.certPem,
    requestCert: true,
    rejectUnauthorized: false,
  };
  const server = createSecureServer(
    {
      ...tlsOptions,
      allowHTTP1: true,
      // Go's http2 server advertises its MaxHeaderBytes as the header list limit too.
      settings: { maxHeaderListSize: MAX_HEADER_BYTES },
      // Megabytes a session may buffer before refusing new streams: big lists are tens of them.
      maxSessionMemory: 256,
    },
    // HTTP/2 requests come as Http2ServerRequest/Response, which the handler serves through the
    // members the two shapes share (see the comment at the top).
    handler as unknown as Parameters<typeof createSecureServer>[1],
  );
  // Read by Node's HTTP/1.1 parser for the HTTP/1.1 connections this server takes.
  Object.assign(server, { maxHeaderSize: MAX_HEADER_BYTES });
  answerUnparsed(server);
  return { server, listener: sniffingListener(server, sockets), ca, sockets };
}

export async function listen(t: Transport, port: number, host: string): Promise<number> {
  // Read by Node's HTTP/1.1 connection handling, for the HTTPS server's HTTP/1.1 connections too.
  Object.assign(t.server, { keepAliveTimeout: 60_000, headersTimeout: 65_000, requestTimeout: 0 });
  await new Promise<void>((resolve, reject) => {
    t.listener.once("error", reject);
    t.listener.listen(port, host, () => {
      t.listener.off("error", reject);
      resolve();
    });
  });
  return (t.listener.address() as AddressInfo).port;
}

export function closeTransport(t: Transport): Promise<void> {
  return new Promise((resolve) => {
    t.listener.close(() => resolve());
    if ("closeAllConnections" in t.server) t.server.closeAllConnections();
    if (t.listener !== t.server) t.server.close();
    for (const socket of t.sockets) socket.destroy();
  });
}
