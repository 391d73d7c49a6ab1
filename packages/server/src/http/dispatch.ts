/**
 * Routes one HTTP request: authentication, discovery, then the resource verb
 * handlers, with content negotiation on the way out and every failure written
 * as a Status.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors, failure, StatusError } from "../api/status.js";
import type { FaultController } from "../faults/fault-controller.js";
import { decodeObjectBody, decodeProtobufBody } from "../handlers/body.js";
import type { ApiResponse, HandlerContext } from "../handlers/context.js";
import { deleteCollection, deleteObject, parseDeleteOptions } from "../handlers/delete.js";
import { getObject } from "../handlers/get.js";
import { listObjects } from "../handlers/list.js";
import { getScale, patchScale, updateScale } from "../handlers/scale.js";
import { createObject, patchObject, updateObject } from "../handlers/write.js";
import { findDuplicateFields } from "../openapi/duplicate-fields.js";
import type { ServedResource } from "../resources/served.js";
import { serveWatch, type WatchRegistry } from "../watch/serve-watch.js";
import { type AuthSettings, authenticate, authorize, type UserInfo } from "./auth.js";
import { readBody } from "./body.js";
import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from "./discovery.js";
import { ACCEPTED_TYPES, bodyTypeOf, type MediaChoice, negotiate, type Shape } from "./negotiate.js";
import { parseRequestInfo, type ResourceRequestInfo } from "./request-info.js";
import { rememberChoice, writeBody, writeError } from "./respond.js";
import { reshape } from "./table.js";

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

export interface ResourceRoute {
  readonly info: ResourceRequestInfo;
  readonly resource: ServedResource;
}

/** Finds the served resource a request addresses, with upstream's 404/405 answers. */
export function resolveResource(ctx: HandlerContext, info: ResourceRequestInfo): ServedResource {
  const r = ctx.resources.find(info.group, info.version, info.resource);
  if (!r) throw errors.notFoundPath();
  if (info.subresource !== undefined && !r.subresources.has(info.subresource)) throw errors.notFoundPath();
  // POST names no object: a POST to an object's path is a method the resource does not allow.
  if (info.verb === "create" && info.name !== undefined && info.subresource === undefined)
    throw failure(
      405,
      "MethodNotAllowed",
      "the server does not allow this method on the requested resource",
      {},
    );
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
  return r;
}

const SHAPES_FOR_READ: readonly Shape[] = ["Table", "PartialObjectMetadata", "PartialObjectMetadataList"];

export function createDispatcher(opts: DispatchOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { ctx } = opts;
  return (req, res) => {
    const started = Date.now();
    const url = new URL(req.url ?? "/", "https://localhost");
    res.on("finish", () => {
      opts.log?.(`${req.method} ${url.pathname}${url.search} ${res.statusCode} ${Date.now() - started}ms`);
    });
    handle(req, res, url).catch((err) => writeError(res, err));
  };

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (url.pathname === "/healthz" || url.pathname === "/readyz" || url.pathname === "/livez") {
      res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" }).end("ok");
      return;
    }
    const user = authenticate(req, opts.auth);
    for (const ext of opts.extensions ?? []) if (await ext(req, res, url, user)) return;
    const method = req.method ?? "GET";
    const info = parseRequestInfo(method, url.pathname, url.searchParams);
    authorize(
      user,
      opts.auth,
      info.type === "other"
        ? { path: url.pathname, verb: method.toLowerCase() }
        : {
            verb: info.verb,
            group: info.group,
            resource: info.resource,
            subresource: info.subresource,
            namespace: info.namespace,
            name: info.name,
          },
    );
    const json: MediaChoice = { encoding: "json", pretty: url.searchParams.get("pretty") === "true" };
    if (info.type === "other") {
      if (method !== "GET") throw errors.notFoundPath();
      const doc = discoveryDoc(url.pathname, info);
      if (!doc) throw errors.notFoundPath();
      const choice = negotiate(req.headers.accept, { protobuf: false, shapes: [] }) ?? json;
      writeBody(res, 200, doc, { ...choice, pretty: json.pretty });
      return;
    }
    const r = resolveResource(ctx, info);
    if (opts.faults) {
      const injected = await opts.faults.intercept(req, res, url.pathname, info);
      if (injected === "reset") return;
      if (injected) throw injected;
    }
    if (info.verb === "watch") {
      const choice = negotiate(req.headers.accept, {
        protobuf: !r.custom,
        shapes: ["Table", "PartialObjectMetadata"],
        pretty: false,
      });
      if (!choice) throw errors.notAcceptable(ACCEPTED_TYPES);
      rememberChoice(res, choice);
      const abort = new AbortController();
      res.on("close", () => abort.abort());
      await serveWatch(ctx, opts.watch, r, info.namespace, url.searchParams, choice, res, abort.signal);
      return;
    }
    const shapes = info.verb === "get" || info.verb === "list" ? SHAPES_FOR_READ : [];
    const choice = negotiate(req.headers.accept, { protobuf: !r.custom, shapes, pretty: json.pretty });
    if (!choice) throw errors.notAcceptable(ACCEPTED_TYPES);
    rememberChoice(res, choice);
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const result = await runVerb(req, info, r, url.searchParams, abort.signal);
    const body = choice.shape
      ? reshape(r, result.body, choice.shape, choice.shapeVersion ?? "v1", url.searchParams)
      : result.body;
    writeBody(res, result.code, body, choice, result.headers);
  }

  function discoveryDoc(
    pathname: string,
    info: { discovery?: { group?: string; version?: string; legacy: boolean } },
  ): unknown {
    if (pathname === "/version" || pathname === "/version/") return versionInfo();
    const d = info.discovery;
    if (!d) return undefined;
    if (d.legacy)
      return d.version === undefined
        ? apiVersions(opts.serverAddress())
        : apiResourceList(ctx.resources, "", d.version);
    if (d.group === undefined) return apiGroupList(ctx.resources);
    if (d.version === undefined) return apiGroup(ctx.resources, d.group);
    return apiResourceList(ctx.resources, d.group, d.version);
  }

  async function runVerb(
    req: IncomingMessage,
    info: ResourceRequestInfo,
    r: ServedResource,
    q: URLSearchParams,
    signal: AbortSignal,
  ): Promise<ApiResponse> {
    const ns = info.namespace;
    switch (info.verb) {
      case "get":
        if (info.subresource === "scale") return getScale(ctx, r, ns, info.name as string);
        return getObject(ctx, r, ns, info.name as string, q, signal);
      case "list":
        return listObjects(ctx, r, ns, q, signal);
      case "watch":
        throw new Error("watch is served before runVerb");
      case "create": {
        const { body, duplicateFields } = await readObject(
          req,
          info.subresource === "scale" ? "Scale" : r.kind,
        );
        return createObject(ctx, r, {
          duplicateFields,
          userAgent: req.headers["user-agent"],
          namespace: ns,
          query: q,
          body,
          ...(info.subresource ? { subresource: info.subresource } : {}),
        });
      }
      case "update": {
        const { body, duplicateFields } = await readObject(
          req,
          info.subresource === "scale" ? "Scale" : r.kind,
        );
        return (info.subresource === "scale" ? updateScale : updateObject)(ctx, r, {
          duplicateFields,
          userAgent: req.headers["user-agent"],
          namespace: ns,
          name: info.name as string,
          query: q,
          body,
          ...(info.subresource ? { subresource: info.subresource } : {}),
        });
      }
      case "patch": {
        const patchType = bodyTypeOf(req.headers["content-type"]);
        const raw = await readBody(req, ctx.settings.maxBodyBytes);
        if (
          patchType === undefined ||
          patchType === "json" ||
          patchType === "yaml" ||
          patchType === "protobuf"
        )
          throw errors.unsupportedMediaType([
            "application/json-patch+json",
            "application/merge-patch+json",
            "application/strategic-merge-patch+json",
            "application/apply-patch+yaml",
          ]);
        let patch: unknown;
        try {
          patch = patchType === "apply" ? decodeObjectBody(raw, "apply") : JSON.parse(raw.toString("utf8"));
        } catch (e) {
          if (e instanceof StatusError) throw e;
          throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
        }
        return (info.subresource === "scale" ? patchScale : patchObject)(ctx, r, {
          duplicateFields: patchType === "apply" ? [] : findDuplicateFields(raw.toString("utf8")),
          userAgent: req.headers["user-agent"],
          namespace: ns,
          name: info.name as string,
          query: q,
          patchType,
          patch,
          ...(info.subresource ? { subresource: info.subresource } : {}),
        });
      }
      case "delete": {
        const raw = await readBody(req, ctx.settings.maxBodyBytes);
        const body = raw.length > 0 ? decodeObjectBody(raw, "json") : undefined;
        return deleteObject(ctx, r, ns, info.name as string, parseDeleteOptions(q, body));
      }
      case "deletecollection": {
        const raw = await readBody(req, ctx.settings.maxBodyBytes);
        const body = raw.length > 0 ? decodeObjectBody(raw, "json") : undefined;
        return deleteCollection(ctx, r, ns, q, parseDeleteOptions(q, body));
      }
    }
  }

  async function readObject(
    req: IncomingMessage,
    kindHint: string,
  ): Promise<{ body: Record<string, unknown>; duplicateFields: string[] }> {
    const type = bodyTypeOf(req.headers["content-type"]);
    if (type !== "json" && type !== "yaml" && type !== "protobuf")
      throw errors.unsupportedMediaType(ACCEPTED_TYPES);
    const raw = await readBody(req, ctx.settings.maxBodyBytes);
    const body = type === "protobuf" ? decodeProtobufBody(raw, kindHint) : decodeObjectBody(raw, type);
    return { body, duplicateFields: type === "json" ? findDuplicateFields(raw.toString("utf8")) : [] };
  }
}
