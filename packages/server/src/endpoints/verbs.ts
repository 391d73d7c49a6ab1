/**
 * The routing table of resource requests: one handler per verb, each taking
 * the resolved request, decoding what its verb needs and calling the
 * semantics in handlers/.
 */
import type { IncomingMessage } from "node:http";
import type { UserInfo } from "../http/auth.js";
import type { DecodedObject, DecodedPatch } from "../http/body-decode.js";
import { readDeleteBody, readObject, readPatch } from "../http/request-body.js";
import type { ResourceRequestInfo, Verb } from "../http/request-info.js";
import type { ServedResource } from "../resources/served.js";
import type { ApiResponse, HandlerContext } from "./handlers/context.js";
import { deleteCollection, deleteRequested } from "./handlers/delete.js";
import { parseDeleteOptions } from "./handlers/delete-options.js";
import { getObject } from "./handlers/get.js";
import { listObjects } from "./handlers/list.js";
import { checkFieldManager } from "./handlers/options.js";
import { patchObject } from "./handlers/patch.js";
import { getScale, patchScale, updateScale } from "./handlers/scale.js";
import { createObject, type PatchRequest, updateObject, type WriteRequest } from "./handlers/write.js";

export interface VerbRequest {
  readonly ctx: HandlerContext;
  readonly req: IncomingMessage;
  readonly info: ResourceRequestInfo;
  readonly resource: ServedResource;
  readonly query: URLSearchParams;
  readonly signal: AbortSignal;
  /** The authenticated (or impersonated) requester. */
  readonly user?: UserInfo;
}

export type VerbHandler = (v: VerbRequest) => Promise<ApiResponse>;

const isScale = (v: VerbRequest): boolean => v.info.subresource === "scale";
const nameOf = (v: VerbRequest): string => v.info.name as string;
const limitOf = (v: VerbRequest): number => v.ctx.settings.maxBodyBytes;
const offThreadOf = (v: VerbRequest): number => v.ctx.settings.offThreadDecodeBytes;

const OPTIONS_KIND = { create: "CreateOptions", update: "UpdateOptions", patch: "PatchOptions" } as const;

/** The `fieldManager` parameter of a write, checked as its options kind checks it. */
function checkManagerParam(v: VerbRequest, verb: keyof typeof OPTIONS_KIND): void {
  const manager = v.query.get("fieldManager");
  if (manager) checkFieldManager(manager, OPTIONS_KIND[verb]);
}

/**
 * What every write passes on: where, the query, who, the subresource addressed, and the decoded
 * body. One literal of one shape: spreading the pieces together (and a conditional subresource)
 * cost a create as much CPU as its body's type check.
 */
function writeRequest(v: VerbRequest, verb: keyof typeof OPTIONS_KIND, decoded: DecodedObject): WriteRequest {
  checkManagerParam(v, verb);
  return {
    namespace: v.info.namespace,
    name: v.info.name,
    subresource: v.info.subresource,
    query: v.query,
    body: decoded.body,
    userAgent: v.req.headers["user-agent"],
    user: v.user,
    duplicateFields: decoded.duplicateFields,
    repeatedKeysText: decoded.repeatedKeysText,
    large: decoded.large,
  };
}

/** A patch's request (its target as writeRequest's, with the decoded patch). */
function patchRequest(v: VerbRequest, decoded: DecodedPatch): PatchRequest {
  checkManagerParam(v, "patch");
  return {
    namespace: v.info.namespace,
    name: nameOf(v),
    subresource: v.info.subresource,
    query: v.query,
    userAgent: v.req.headers["user-agent"],
    user: v.user,
    patchType: decoded.patchType,
    patch: decoded.patch,
    duplicateFields: decoded.duplicateFields,
    large: decoded.large,
  };
}

async function getVerb(v: VerbRequest): Promise<ApiResponse> {
  if (isScale(v)) return getScale(v.ctx, v.resource, v.info.namespace, nameOf(v));
  return getObject(v.ctx, v.resource, v.info.namespace, nameOf(v), v.query, () => v.signal);
}

async function listVerb(v: VerbRequest): Promise<ApiResponse> {
  return listObjects(v.ctx, v.resource, v.info.namespace, v.query, () => v.signal);
}

async function createVerb(v: VerbRequest): Promise<ApiResponse> {
  const decoded = await readObject(v.req, limitOf(v), isScale(v) ? "Scale" : v.resource.kind, offThreadOf(v));
  return createObject(v.ctx, v.resource, writeRequest(v, "create", decoded));
}

async function updateVerb(v: VerbRequest): Promise<ApiResponse> {
  const decoded = await readObject(v.req, limitOf(v), isScale(v) ? "Scale" : v.resource.kind, offThreadOf(v));
  const update = isScale(v) ? updateScale : updateObject;
  // An update's URL names its object (request-info.ts), so the request has its name.
  return update(v.ctx, v.resource, writeRequest(v, "update", decoded) as WriteRequest & { name: string });
}

async function patchVerb(v: VerbRequest): Promise<ApiResponse> {
  const decoded = await readPatch(v.req, limitOf(v), offThreadOf(v));
  const patch = isScale(v) ? patchScale : patchObject;
  return patch(v.ctx, v.resource, patchRequest(v, decoded));
}

async function deleteVerb(v: VerbRequest): Promise<ApiResponse> {
  const options = parseDeleteOptions(v.query, await readDeleteBody(v.req, limitOf(v)));
  const target = { namespace: v.info.namespace, name: nameOf(v), user: v.user };
  return deleteRequested(v.ctx, v.resource, target, options);
}

async function deleteCollectionVerb(v: VerbRequest): Promise<ApiResponse> {
  const options = parseDeleteOptions(v.query, await readDeleteBody(v.req, limitOf(v)));
  return deleteCollection(v.ctx, v.resource, v.info.namespace, v.query, options, v.user);
}

/** Every verb but watch, which streams (watch/serve-watch.ts). */
export const VERB_HANDLERS: Readonly<Record<Exclude<Verb, "watch">, VerbHandler>> = {
  get: getVerb,
  list: listVerb,
  create: createVerb,
  update: updateVerb,
  patch: patchVerb,
  delete: deleteVerb,
  deletecollection: deleteCollectionVerb,
};
