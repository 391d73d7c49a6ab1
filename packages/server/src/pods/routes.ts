/**
 * HTTP routes of the pod simulation: `GET pods/log` (tail, since, timestamps, limitBytes, previous,
 * follow until the container stops) and `POST pods/eviction` (honouring PodDisruptionBudgets).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { queryBool } from "../api/query-bool.js";
import { errors } from "../api/status.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import { matchingPath } from "../endpoints/route-extension.js";
import { type AuthSettings, authorize, type UserInfo } from "../http/auth.js";
import { readObject } from "../http/request-body.js";
import { evict } from "./eviction.js";
import type { LogEntry, PodRuntime } from "./runtime.js";

const POD_SUBRESOURCE = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/(log|eviction)$/;

export function podRoutes(runtime: PodRuntime, ctx: HandlerContext, auth: AuthSettings) {
  return matchingPath(
    POD_SUBRESOURCE,
    async (req: IncomingMessage, res: ServerResponse, url: URL, user: UserInfo, m): Promise<boolean> => {
      const namespace = decodeURIComponent(m[1] as string);
      const name = decodeURIComponent(m[2] as string);
      const sub = m[3] as "log" | "eviction";
      const verb = sub === "log" ? "get" : "create";
      if ((sub === "log" && req.method !== "GET") || (sub === "eviction" && req.method !== "POST"))
        throw errors.methodNotSupported({ group: "", resource: `pods/${sub}` }, verb);
      authorize(user, auth, { verb, group: "", resource: "pods", subresource: sub, namespace, name });
      if (sub === "eviction") {
        const { body } = await readObject(req, 1024 * 1024, "Eviction");
        const result = evict(ctx, namespace, name, body);
        res.writeHead(result.code, { "Content-Type": "application/json" }).end(JSON.stringify(result.body));
        return true;
      }
      serveLog(runtime, req, res, url, namespace, name);
      return true;
    },
  );
}

function numberParam(q: URLSearchParams, name: string): number | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw errors.badRequest(`${name}: invalid value ${JSON.stringify(raw)}`);
  return n;
}

/** Serves a container log (also a kubelet endpoint's `containerLogs`). */
export function serveLog(
  runtime: PodRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  namespace: string,
  name: string,
): void {
  const q = url.searchParams;
  const ref = runtime.resolve(namespace, name, q.get("container"));
  const log = runtime.logsOf(ref, queryBool(q, "previous"));
  const tail = numberParam(q, "tailLines");
  const sinceSeconds = numberParam(q, "sinceSeconds");
  const sinceTime = q.get("sinceTime");
  const since =
    sinceSeconds !== undefined
      ? Date.now() - sinceSeconds * 1000
      : sinceTime
        ? Date.parse(sinceTime)
        : undefined;
  let budget = numberParam(q, "limitBytes") ?? Number.POSITIVE_INFINITY;
  const timestamps = queryBool(q, "timestamps");
  const follow = queryBool(q, "follow") && !log.stopped;
  const format = (e: LogEntry) => `${timestamps ? `${e.time.toISOString()} ` : ""}${e.text}\n`;
  // Chunked on HTTP/1.1 by Node itself (HTTP/2 forbids a Transfer-Encoding header).
  res.writeHead(200, { "Content-Type": "text/plain" });
  // Returns false once limitBytes is used up.
  const emit = (e: LogEntry): boolean => {
    if (since !== undefined && e.time.getTime() <= since) return true;
    const bytes = Buffer.from(format(e));
    const part = bytes.subarray(0, Math.min(bytes.length, budget));
    budget -= part.length;
    res.write(part);
    return budget > 0;
  };
  let entries = log.entries;
  if (tail !== undefined) entries = tail === 0 ? [] : entries.slice(-tail);
  for (const e of entries) if (!emit(e)) return void res.end();
  if (!follow) return void res.end();
  // Closed by the server (stop, closeAll): the connection drops mid-body, as when an apiserver goes away.
  const stream = {
    close: () => {
      detach();
      res.destroy();
    },
  };
  const onLine = (e: LogEntry) => {
    if (!emit(e)) finish();
  };
  const detach = () => {
    log.events.off("line", onLine);
    log.events.off("stopped", finish);
    runtime.open.delete(stream);
  };
  const finish = () => {
    detach();
    if (!res.writableEnded) res.end();
  };
  runtime.open.add(stream);
  log.events.on("line", onLine);
  log.events.once("stopped", finish);
  req.once("close", finish);
}
