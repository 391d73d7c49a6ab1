/** The two servers of the differential suite and a minimal JSON client for each. */
import { startServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import { startRealApiserver } from "../../real-apiserver/start.js";

export interface Reply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: Status bodies are read field by field.
  readonly json: any;
  /** The texts of the response's `Warning` headers, in the order sent. */
  readonly warnings: readonly string[];
}

/** The texts of RFC 7234 warning values (`299 - "text"`). */
export function warningTexts(header: string | string[] | undefined): string[] {
  const values = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return values.flatMap((v) =>
    [...v.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? "").replace(/\\(.)/g, "$1")),
  );
}

export interface Server {
  readonly kind: "reference" | "real";
  call(method: string, path: string, body?: unknown): Promise<Reply>;
  stop(): Promise<void>;
}

function client(
  kind: Server["kind"],
  url: string,
  token: string,
  ca: string | undefined,
  stop: () => Promise<void>,
): Server {
  const dispatcher = new Agent({ connect: ca ? { ca } : {} });
  return {
    kind,
    async call(method, path, body) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (body !== undefined) headers["content-type"] = "application/json";
      const res = await request(url + path, {
        method: method as "GET",
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher,
      });
      const text = await res.body.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: res.statusCode, json, warnings: warningTexts(res.headers.warning) };
    },
    async stop() {
      await dispatcher.close();
      await stop();
    },
  };
}

export async function startReference(): Promise<Server> {
  const s = await startServer({ cluster: false });
  return client("reference", s.url, s.token, s.ca, () => s.stop());
}

export async function startReal(): Promise<Server> {
  const s = await startRealApiserver({ readyTimeoutMs: 180_000 });
  return client("real", s.url, s.token, s.caPem, () => s.stop());
}
