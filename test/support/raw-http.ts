/**
 * Raw HTTP/1.1 exchanges for tests that send what well-behaved clients never
 * send (request targets such as `//[`, unknown methods, plain HTTP to the TLS
 * port): the request line is written as given and the response read as text.
 */
import { connect as connectTcp } from "node:net";
import { connect as connectTls } from "node:tls";
import type { TestTarget } from "./target.js";

export interface RawResponse {
  readonly status: number;
  readonly headers: string;
  readonly body: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
  readonly json: any;
}

function parse(text: string): RawResponse {
  const split = text.indexOf("\r\n\r\n");
  const headers = split < 0 ? text : text.slice(0, split);
  let body = split < 0 ? "" : text.slice(split + 4);
  if (/transfer-encoding: chunked/i.test(headers)) body = dechunk(body);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(headers)?.[1] ?? 0), headers, body, json };
}

function dechunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const line = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, line), 16);
    if (!(size > 0)) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

/** Sends `method target` with the admin token (unless `anonymous`) over TLS (or plain TCP with `plain`). */
export function rawRequest(
  t: TestTarget,
  method: string,
  target: string,
  opts: { plain?: boolean; anonymous?: boolean; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const url = new URL(t.url);
  const port = Number(url.port);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: url.host, Connection: "close", ...opts.headers };
    if (!opts.anonymous) headers.Authorization = `Bearer ${t.token}`;
    if (opts.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(opts.body));
    const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
    const request = `${method} ${target} HTTP/1.1\r\n${lines.join("")}\r\n${opts.body ?? ""}`;
    const useTls = url.protocol === "https:" && !opts.plain;
    const socket = useTls
      ? connectTls({ host, port, ca: t.ca, servername: "localhost" }, () => socket.write(request))
      : connectTcp({ host, port }, () => socket.write(request));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => {
      text += c;
    });
    socket.on("end", () => resolve(parse(text)));
    socket.on("close", () => resolve(parse(text)));
    socket.on("error", (e: NodeJS.ErrnoException) =>
      e.code === "ECONNRESET" ? resolve(parse(text)) : reject(e),
    );
  });
}
