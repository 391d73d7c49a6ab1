/**
 * The fault controls over HTTP, for tests in other processes and languages:
 * `POST /_kubesdk/faults/<action>` with a JSON body. Served only when the
 * server was started with the fault API enabled (off by default), and only to
 * an administrator (a user in system:masters, e.g. the admin token). Bodies
 * are validated before anything changes: a malformed rule is a 400.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors, failure } from "../api/status.js";
import { claimingPaths } from "../endpoints/route-extension.js";
import type { UserInfo } from "../http/auth.js";
import { readJsonObjectBody } from "../http/body.js";
import type { FailureKind, FaultController, FaultMatch } from "./fault-controller.js";

const PREFIX = "/_kubesdk/faults/";
const MAX_BODY = 64 * 1024;

type Body = Record<string, unknown>;
type Action = (faults: FaultController, body: Body) => unknown;

const bad = (why: string) => errors.badRequest(`fault API: ${why}`);
const isRecord = (v: unknown): v is Body => typeof v === "object" && v !== null && !Array.isArray(v);

function optionalNumber(
  body: Body,
  key: string,
  check: (n: number) => boolean,
  what: string,
): number | undefined {
  const v = body[key];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || !check(v)) throw bad(`${key} must be ${what}`);
  return v;
}

const MATCH_KEYS = new Set(["group", "resource", "namespace", "verb", "pathPrefix"]);

function matchOf(body: Body): FaultMatch {
  const m = body.match ?? {};
  if (!isRecord(m)) throw bad("match must be an object");
  for (const [k, v] of Object.entries(m)) {
    if (!MATCH_KEYS.has(k)) throw bad(`match has an unknown field ${JSON.stringify(k)}`);
    if (typeof v !== "string") throw bad(`match.${k} must be a string`);
  }
  return m as FaultMatch;
}

function failureKindOf(body: Body): FailureKind {
  const k = body.kind;
  if (!isRecord(k)) throw bad("fail-next needs count and kind");
  if (k.reset === true) return { reset: true };
  const retry = optionalNumber(
    k,
    "retryAfterSeconds",
    (n) => Number.isInteger(n) && n >= 0,
    "a whole number",
  );
  if (k.status === 429) return { status: 429, ...(retry !== undefined ? { retryAfterSeconds: retry } : {}) };
  if (k.status === 500 || k.status === 503) return { status: k.status };
  if (k.status === 504) return { status: 504, tooLargeResourceVersion: k.tooLargeResourceVersion === true };
  throw bad("kind must be {status: 429|500|503|504} or {reset: true}");
}

const isCount = (n: number) => Number.isInteger(n) && n > 0 && n <= 1_000_000;

const ACTIONS: Readonly<Record<string, Action>> = {
  "drop-watches": (f, b) => {
    const mode = b.mode ?? "end";
    if (mode !== "end" && mode !== "reset") throw bad('mode must be "end" or "reset"');
    return { dropped: f.dropWatches(matchOf(b), mode) };
  },
  compact: (f) => ({ revision: f.compact() }),
  "fail-next": (f, b) => {
    const count = optionalNumber(b, "count", isCount, "a positive whole number");
    if (count === undefined) throw bad("fail-next needs count and kind");
    const probability = optionalNumber(b, "probability", (n) => n >= 0 && n <= 1, "between 0 and 1") ?? 1;
    f.failNext(count, failureKindOf(b), matchOf(b), probability);
  },
  latency: (f, b) => {
    f.addLatency(optionalNumber(b, "ms", (n) => n >= 0 && n <= 600_000, "0 to 600000") ?? 0, matchOf(b));
  },
  "break-mid-event": (f, b) => ({ affected: f.breakMidEvent(matchOf(b)) }),
  "malformed-event": (f, b) => ({ affected: f.malformedEvent(matchOf(b)) }),
  stall: (f, b) => ({ affected: f.stallWatches(matchOf(b)) }),
  unstall: (f) => f.unstall(),
  restart: (f) => f.restart(),
  pause: (f) => f.pauseDelivery(),
  resume: (f) => f.resumeDelivery(),
  reseed: (f, b) => f.reseed(optionalNumber(b, "seed", Number.isInteger, "a whole number") ?? 1),
  reset: (f) => f.reset(),
};

export function faultApiRoute(faults: FaultController) {
  return claimingPaths(
    (path) => path.startsWith(PREFIX),
    async (req: IncomingMessage, res: ServerResponse, url: URL, user?: UserInfo): Promise<boolean> => {
      if (!user?.groups.includes("system:masters"))
        throw failure(403, "Forbidden", `forbidden: User "${user?.name ?? ""}" cannot use the fault API`, {});
      if (url.pathname === `${PREFIX}log` && req.method === "GET") return reply(res, { log: faults.log });
      if (req.method !== "POST")
        throw errors.methodNotSupported({ group: "", resource: "faults" }, req.method ?? "");
      const name = url.pathname.slice(PREFIX.length);
      const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
      if (!action) throw errors.notFoundPath();
      return reply(res, action(faults, await readJsonObjectBody(req, MAX_BODY, bad)) ?? {});
    },
  );
}

function reply(res: ServerResponse, body: unknown): true {
  res.writeHead(200, { "Content-Type": "application/json" }).end(`${JSON.stringify(body)}\n`);
  return true;
}
