import { EventEmitter } from "node:events";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { failureStatus } from "../../src/index.js";

/** One request as the server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** performance.now() on the server when the request's headers arrived. */
  readonly at: number;
  /** Common name of the verified client certificate, if any. */
  readonly clientCn: string | undefined;
}

/** What a handler gets: the request as seen, plus the raw objects. */
export type Handler = (seen: SeenRequest, req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A real HTTP(S) server on 127.0.0.1 that records requests and reports socket closes. */
export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly requests: SeenRequest[];
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Resolves when the socket that carried the n-th (0-based) request closes. */
  socketClosed(index: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a server; with `tls` it is HTTPS (and may require client certificates). */
export async function startTestServer(
  handler: Handler,
  tls?: { cert: string; key: string; ca?: string; requireClientCert?: boolean },
): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const closes: Promise<void>[] = [];
  const arrivals = new EventEmitter();
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const at = performance.now();
    const socket = req.socket;
    const closed = new Promise<void>((resolve) => {
      if (socket.destroyed) resolve();
      else socket.once("close", () => resolve());
    });
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const peer = (socket as TLSSocket).getPeerCertificate?.();
      const cn = peer && typeof peer.subject === "object" ? peer.subject?.CN : undefined;
      const seen: SeenRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at,
        clientCn: typeof cn === "string" ? cn : undefined,
      };
      requests.push(seen);
      closes.push(closed);
      handler(seen, req, res);
      arrivals.emit("request");
    });
  };
  const server = tls
    ? https.createServer(
        {
          cert: tls.cert,
          key: tls.key,
          ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
          requestCert: tls.requireClientCert ?? false,
          rejectUnauthorized: tls.requireClientCert ?? false,
        },
        listener,
      )
    : http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? "https" : "http"}://127.0.0.1:${port}`,
    port,
    requests,
    waitForRequests: (count) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (requests.length < count) return;
          arrivals.off("request", check);
          resolve();
        };
        arrivals.on("request", check);
        check();
      }),
    socketClosed: (index) => closes[index] ?? Promise.reject(new Error(`no request #${index}`)),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes a JSON body with the given status. */
export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(`${JSON.stringify(body)}\n`);
}

/** A Status body like the API server's. */
export const statusBody = failureStatus;
