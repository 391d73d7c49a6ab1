/**
 * Opens a WebSocket to an API server path with the transport's identity: its TLS settings, its
 * credentials (refreshed once after a 401, like every other request) and its default headers.
 * A refused upgrade rejects with the server's Status as an ApiError.
 */
import type { IncomingMessage } from "node:http";
import {
  ApiError,
  apiErrorFromResponse,
  type HttpTransport,
  type QueryValue,
  RequestAbortedError,
} from "@kubesdk/transport";
import WebSocket from "ws";
import { PodIoError } from "./errors.js";

export interface OpenSocketOptions {
  readonly path: string;
  readonly query: Readonly<Record<string, QueryValue>>;
  /** Subprotocols in order of preference. */
  readonly protocols: readonly string[];
  readonly signal?: AbortSignal;
  /** Handshake timeout (ms); default 30 000. */
  readonly timeoutMs?: number;
}

/** Opens the socket; a 401 is retried once when the credentials provider has fresh ones. */
export async function openSocket(transport: HttpTransport, options: OpenSocketOptions): Promise<WebSocket> {
  const auth = transport.connection.auth;
  let credentials = await auth.credentials(options.signal);
  try {
    return await connect(transport, options, credentials);
  } catch (err) {
    if (!(isUnauthorized(err) && (await auth.refreshAfterUnauthorized(credentials, options.signal))))
      throw err;
    credentials = await auth.credentials(options.signal);
    return connect(transport, options, credentials);
  }
}

function isUnauthorized(err: unknown): boolean {
  const e = err as { statusCode?: unknown; code?: unknown };
  return err instanceof ApiError && (e.statusCode === 401 || e.code === 401);
}

type Credentials = Awaited<ReturnType<HttpTransport["connection"]["auth"]["credentials"]>>;

function connect(
  transport: HttpTransport,
  options: OpenSocketOptions,
  credentials: Credentials,
): Promise<WebSocket> {
  const parts = transport.build({ method: "GET", path: options.path, query: options.query });
  const origin = new URL(transport.connection.server).origin.replace(/^http/, "ws");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parts.headers)) {
    if (name === "accept") continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : (value as string);
  }
  if (credentials.authorization !== undefined) headers.authorization = credentials.authorization;
  const tls = transport.connection.tls;
  const cert =
    credentials.clientCertificate ?? (tls.cert && tls.key ? { cert: tls.cert, key: tls.key } : undefined);
  const socket = new WebSocket(origin + parts.path, [...options.protocols], {
    headers,
    perMessageDeflate: false,
    handshakeTimeout: options.timeoutMs ?? 30_000,
    rejectUnauthorized: tls.rejectUnauthorized,
    ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
    ...(tls.servername !== undefined ? { servername: tls.servername } : {}),
    ...(cert !== undefined ? { cert: cert.cert, key: cert.key } : {}),
  });
  socket.binaryType = "nodebuffer";
  return new Promise((resolve, reject) => {
    const signal = options.signal;
    const onAbort = () => {
      socket.terminate();
      fail(new RequestAbortedError("the stream was aborted before it opened", { cause: signal?.reason }));
    };
    const fail = (err: Error) => {
      signal?.removeEventListener("abort", onAbort);
      socket.removeAllListeners("open");
      socket.removeAllListeners("error");
      socket.on("error", () => undefined);
      reject(err);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.once("unexpected-response", (request, response) => {
      readFailure(response, options.path)
        .then(fail, fail)
        .finally(() => request.destroy());
    });
    socket.once("error", (err) =>
      fail(
        new PodIoError("STREAM_CONNECT_FAILED", `WebSocket to ${options.path}: ${err.message}`, {
          cause: err,
        }),
      ),
    );
    socket.once("open", () => {
      signal?.removeEventListener("abort", onAbort);
      socket.removeAllListeners("error");
      socket.removeAllListeners("unexpected-response");
      resolve(socket);
    });
  });
}

async function readFailure(response: IncomingMessage, path: string): Promise<Error> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const header = (name: string) => {
    const v = response.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  return apiErrorFromResponse({
    statusCode: response.statusCode ?? 500,
    contentType: header("content-type"),
    retryAfter: header("retry-after"),
    body: Buffer.concat(chunks),
    request: { method: "GET", path },
  });
}
