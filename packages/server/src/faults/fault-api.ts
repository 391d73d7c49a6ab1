/**
 * The fault controls over HTTP, for tests in other processes and languages:
 * `POST /_kubesdk/faults/<action>` with a JSON body. Served only when the
 * server was started with the fault API enabled (off by default).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors } from "../api/status.js";
import { readBody } from "../http/body.js";
import type { FailureKind, FaultController, FaultMatch } from "./fault-controller.js";

const PREFIX = "/_kubesdk/faults/";

type Body = {
  match?: FaultMatch;
  mode?: "end" | "reset";
  count?: number;
  kind?: FailureKind;
  ms?: number;
  seed?: number;
  probability?: number;
};

export function faultApiRoute(faults: FaultController) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (!url.pathname.startsWith(PREFIX)) return false;
    if (url.pathname === `${PREFIX}log` && req.method === "GET") return reply(res, { log: faults.log });
    if (req.method !== "POST")
      throw errors.methodNotSupported({ group: "", resource: "faults" }, req.method ?? "");
    const raw = await readBody(req, 64 * 1024);
    let body: Body = {};
    try {
      body = raw.length ? (JSON.parse(raw.toString("utf8")) as Body) : {};
    } catch {
      throw errors.badRequest("fault API: the body must be JSON");
    }
    const m = body.match ?? {};
    const action = url.pathname.slice(PREFIX.length);
    switch (action) {
      case "drop-watches":
        return reply(res, { dropped: faults.dropWatches(m, body.mode ?? "end") });
      case "compact":
        return reply(res, { revision: faults.compact() });
      case "fail-next":
        if (!body.kind || !body.count) throw errors.badRequest("fault API: fail-next needs count and kind");
        faults.failNext(body.count, body.kind, m, body.probability ?? 1);
        return reply(res, {});
      case "latency":
        faults.addLatency(body.ms ?? 0, m);
        return reply(res, {});
      case "break-mid-event":
        return reply(res, { affected: faults.breakMidEvent(m) });
      case "malformed-event":
        return reply(res, { affected: faults.malformedEvent(m) });
      case "stall":
        return reply(res, { affected: faults.stallWatches(m) });
      case "unstall":
        faults.unstall();
        return reply(res, {});
      case "restart":
        faults.restart();
        return reply(res, {});
      case "pause":
        faults.pauseDelivery();
        return reply(res, {});
      case "resume":
        faults.resumeDelivery();
        return reply(res, {});
      case "reseed":
        faults.reseed(body.seed ?? 1);
        return reply(res, {});
      case "reset":
        faults.reset();
        return reply(res, {});
      default:
        throw errors.notFoundPath();
    }
  };
}

function reply(res: ServerResponse, body: unknown): true {
  res.writeHead(200, { "Content-Type": "application/json" }).end(`${JSON.stringify(body)}\n`);
  return true;
}
