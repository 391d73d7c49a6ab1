/**
 * Routes one HTTP request: request target, authentication, route extensions,
 * discovery, then the resource verbs (http/verbs.ts) with content negotiation
 * on the way out and every failure written as a Status.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { pathSegmentProblems } from "../api/names.js";
import { errors, failure } from "../api/status.js";
import type { FaultController } from "../faults/fault-controller.js";
import { type AuthSettings, authenticate, authorize, type UserInfo } from "../http/auth.js";
import { encodeBodyYielding } from "../http/list-encode.js";
import { ACCEPTED_TYPES, type MediaChoice, negotiate, type Shape } from "../http/negotiate.js";
import { parseRequestInfo, type RequestInfo, type ResourceRequestInfo } from "../http/request-info.js";
import { rememberChoice, writeBody, writeBytes, writeCommitted, writeError } from "../http/respond.js";
import type { ServedResource } from "../resources/served.js";
import { serveWatch, type WatchRegistry } from "../watch/serve-watch.js";
import {
  aggregatedDiscovery,
  discoveryFormat,
  notAcceptable,
  serveAggregated,
} from "./aggregated-discovery.js";
import { discoveryDocument } from "./discovery.js";
import type { HandlerContext } from "./handlers/context.js";
import { parseRequestTarget, type RequestTarget } from "./request-target.js";
import { reshape } from "./table.js";
import { VERB_HANDLERS, type VerbRequest } from "./verbs.js";

export interface DispatchOptions {
  readonly ctx: HandlerContext;
  readonly auth: AuthSettings;
  readonly serverAddress: () => string;
  readonly watch: WatchRegistry;
  readonly faults?: FaultController;
  readonly log?: (line: string) => void;
  /** Extra routes (watch, openapi, faults) tried before the built-in ones; return true when handled. */
  readonly extensions?: readonly RouteExtension[];
}

export type RouteExtension = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  user: UserInfo,
) => Promise<boolean> | boolean;

/** Methods the API serves; others, HEAD too (go-restful registers no HEAD route), are 405 like upstream. */
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
const HEALTH = new Set(["/healthz", "/readyz", "/livez"]);
const SHAPES_FOR_READ: readonly Shape[] = ["Table", "PartialObjectMetadata", "PartialObjectMetadataList"];

function methodNotAllowed(): never {
  throw failure(
    405,
    "MethodNotAllowed",
    "the server does not allow this method on the requested resource",
    {},
  );
}

function checkPathName(what: "Name" | "Namespace", value: string | undefined): void {
  const problems = value === undefined ? [] : pathSegmentProblems(value);
  if (problems.length > 0)
    throw errors.badRequest(`${what} parameter invalid: ${JSON.stringify(value)}: ${problems.join(";")}`);
}

/** Finds the served resource a request addresses, with upstream's 400/404/405 answers. */
export function resolveResource(ctx: HandlerContext, info: ResourceRequestInfo): ServedResource {
  const r = ctx.resources.find(info.group, info.version, info.resource);
  if (!r) throw errors.notFoundPath();
  if (info.subresource !== undefined && !r.subresources.has(info.subresource)) throw errors.notFoundPath();
  // POST names no object: a POST to an object's path is a method the resource does not allow.
  if (info.verb === "create" && info.name !== undefined && info.subresource === undefined) methodNotAllowed();
  // PUT and PATCH address one object.
  if ((info.verb === "update" || info.verb === "patch") && info.name === undefined) methodNotAllowed();
  if (info.subresource === undefined && !r.verbs.has(info.verb))
    throw errors.methodNotSupported({ group: r.group, resource: r.resource }, info.verb);
  if (r.namespaced && info.namespace === undefined && info.name !== undefined) throw errors.notFoundPath();
  if (!r.namespaced && info.namespace !== undefined) throw errors.notFoundPath();
  if (
    r.namespaced &&
    info.namespace === undefined &&
    ["create", "update", "patch", "delete"].includes(info.verb)
  )
    throw errors.notFoundPath();
  checkPathName("Namespace", info.namespace);
  checkPathName("Name", info.name);
  return r;
}

export function createDispatcher(opts: DispatchOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const dispatcher = new Dispatcher(opts);
  const log = opts.log;
  return (req, res) => {
    // Without a log, no listener is added: two closures and listeners per request for nothing.
    if (log) logWhenDone(req, res, log);
    let target: RequestTarget;
    try {
      target = parseRequestTarget(req.url);
    } catch (err) {
      req.resume();
      writeError(res, err);
      return;
    }
    dispatcher.handle(req, res, target).catch((err) => writeError(res, err));
  };
}

/** Logs the request once it is answered: "finish" when sent, "close" alone when the client went first. */
function logWhenDone(req: IncomingMessage, res: ServerResponse, log: (line: string) => void): void {
  const started = Date.now();
  let logged = false;
  const logLine = () => {
    if (logged) return;
    logged = true;
    const closed = res.writableFinished ? "" : " (closed by client)";
    log(`${req.method} ${redactTarget(req.url)} ${res.statusCode} ${Date.now() - started}ms${closed}`);
  };
  res.on("finish", logLine);
  res.on("close", logLine);
}

/** Query parameters that carry credentials are not logged. */
const SECRET_PARAMS = /^(access_token|token|password|secret|client_secret|id_token|refresh_token)$/i;
const MAX_LOGGED_TARGET = 2048;

/** The request target for the log: credentials in the query redacted, long targets cut. */
export function redactTarget(raw: string | undefined): string {
  const target = raw ?? "/";
  const q = target.indexOf("?");
  let line = target;
  if (q >= 0) {
    const params = [...new URLSearchParams(target.slice(q + 1))];
    const shown = params.map(([k, v]) => `${k}=${SECRET_PARAMS.test(k) ? "REDACTED" : v}`);
    line = `${target.slice(0, q)}?${shown.join("&")}`;
  }
  return line.length > MAX_LOGGED_TARGET ? `${line.slice(0, MAX_LOGGED_TARGET)}…` : line;
}

class Dispatcher {
  private readonly ctx: HandlerContext;

  constructor(private readonly opts: DispatchOptions) {
    this.ctx = opts.ctx;
  }

  async handle(req: IncomingMessage, res: ServerResponse, target: RequestTarget): Promise<void> {
    const method = req.method ?? "GET";
    if (HEALTH.has(target.pathname)) {
      res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" }).end("ok");
      return;
    }
    const user = authenticate(req, this.opts.auth);
    // The OpenAPI documents are served by an extension, but not to users who may not read them.
    if (target.pathname.startsWith("/openapi/"))
      authorize(user, this.opts.auth, { path: target.pathname, verb: method.toLowerCase() });
    // An extension that leaves the request answers a plain false (route-extension.ts): no await.
    for (const ext of this.opts.extensions ?? []) {
      const claimed = ext(req, res, target.url, user);
      if (claimed === true || (claimed !== false && (await claimed))) return;
    }
    const info = parseRequestInfo(method, target.pathname, target.segments, target.query);
    authorize(user, this.opts.auth, accessOf(info, target.pathname, method));
    if (!METHODS.has(method)) methodNotAllowed();
    if (info.type === "other") return this.serveOther(req, res, target, info);
    const r = resolveResource(this.ctx, info);
    // Without faults to inject, no await (a turn of the microtask queue per request).
    if (this.opts.faults && !this.opts.faults.idle) {
      const injected = await this.opts.faults.intercept(req, res, target.pathname, info);
      if (injected === "reset") return;
      if (injected) throw injected;
    }
    if (info.verb === "watch") return this.serveWatch(req, res, target, info.namespace, r);
    return this.serveVerb(req, res, target, info, r, user);
  }

  private serveOther(
    req: IncomingMessage,
    res: ServerResponse,
    target: RequestTarget,
    info: RequestInfo,
  ): void {
    if (req.method !== "GET") throw errors.notFoundPath();
    if (info.type !== "other") throw errors.notFoundPath();
    const d = info.discovery;
    if (d && d.version === undefined && (d.legacy || d.group === undefined)) {
      const format = discoveryFormat(req.headers.accept);
      if (format === "none") throw notAcceptable();
      if (format !== "legacy") {
        serveAggregated(req, res, aggregatedDiscovery(this.ctx.resources, d.legacy), format);
        return;
      }
    }
    const doc = discoveryDocument(this.ctx.resources, target.pathname, info, this.opts.serverAddress());
    if (!doc) throw errors.notFoundPath();
    const pretty = target.query.get("pretty") === "true";
    const choice = negotiate(req.headers.accept, { protobuf: false, shapes: [] }) ?? jsonChoice(pretty);
    writeBody(res, 200, doc, { ...choice, pretty });
  }

  private async serveWatch(
    req: IncomingMessage,
    res: ServerResponse,
    target: RequestTarget,
    namespace: string | undefined,
    r: ServedResource,
  ): Promise<void> {
    const choice = negotiate(req.headers.accept, {
      protobuf: !r.custom,
      shapes: ["Table", "PartialObjectMetadata"],
      pretty: false,
    });
    if (!choice) throw errors.notAcceptable(ACCEPTED_TYPES);
    rememberChoice(res, choice);
    // Made on demand: a signal per watch aborted at every client close cost an AbortError each.
    let signal: AbortSignal | undefined;
    await serveWatch(this.ctx, this.opts.watch, {
      resource: r,
      namespace,
      query: target.query,
      choice,
      res,
      get signal() {
        signal ??= abortOnClose(res);
        return signal;
      },
    });
  }

  private async serveVerb(
    req: IncomingMessage,
    res: ServerResponse,
    target: RequestTarget,
    info: ResourceRequestInfo,
    r: ServedResource,
    user: UserInfo,
  ): Promise<void> {
    const query = target.query;
    const pretty = query.get("pretty") === "true";
    const shapes = info.verb === "get" || info.verb === "list" ? SHAPES_FOR_READ : [];
    const choice = negotiate(req.headers.accept, { protobuf: !r.custom, shapes, pretty });
    if (!choice) throw errors.notAcceptable(ACCEPTED_TYPES);
    rememberChoice(res, choice);
    const handler = VERB_HANDLERS[info.verb as Exclude<typeof info.verb, "watch">];
    const result = await handler(new VerbCall(this.ctx, req, res, info, r, query, user));
    const body = choice.shape
      ? reshape(r, result.body, choice.shape, choice.shapeVersion ?? "v1", query, this.ctx.store)
      : result.body;
    if (res.destroyed || writeCommitted(res, result.code, body, choice, result.headers)) return;
    // Big lists are encoded in slices, so other clients are served meanwhile.
    const bytes = await encodeBodyYielding(body, choice);
    if (!res.destroyed) writeBytes(res, result.code, bytes, choice, result.headers);
  }
}

/**
 * One resource request for its verb's handler. A class, so every request has the same shape; the
 * abort signal is made only when a handler reads it: only reads that wait for a revision do.
 */
class VerbCall implements VerbRequest {
  #signal: AbortSignal | undefined;

  constructor(
    readonly ctx: HandlerContext,
    readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    readonly info: ResourceRequestInfo,
    readonly resource: ServedResource,
    readonly query: URLSearchParams,
    readonly user: UserInfo,
  ) {}

  get signal(): AbortSignal {
    this.#signal ??= abortOnClose(this.res);
    return this.#signal;
  }
}

function jsonChoice(pretty: boolean): MediaChoice {
  return { encoding: "json", pretty };
}

/**
 * Aborted when the client goes away before the answer is written. Not after: by then the handler
 * is done, and aborting every finished request cost an AbortError (a DOMException) per request.
 */
function abortOnClose(res: ServerResponse): AbortSignal {
  const abort = new AbortController();
  // Read late (the signal is made on demand), after the client went away.
  if (res.destroyed && !res.writableEnded) abort.abort();
  res.on("close", () => {
    if (!res.writableEnded) abort.abort();
  });
  return abort.signal;
}

function accessOf(info: RequestInfo, pathname: string, method: string) {
  if (info.type === "other") return { path: pathname, verb: method.toLowerCase() };
  return {
    verb: info.verb,
    group: info.group,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
  };
}
