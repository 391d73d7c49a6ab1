/**
 * create / update / patch: the write pipeline shared by every resource —
 * decode, check identity, default metadata, validate, dry-run, commit.
 */
import { randomUUID } from "node:crypto";
import { schemaFor } from "@kubesdk/models";
import { validateLabelsAndAnnotations } from "../api/metadata-validation.js";
import { generateName, nowTimestamp, validateName } from "../api/names.js";
import { errors, type FieldError } from "../api/status.js";
import { applyObject } from "../apply/apply-handler.js";
import type { BodyType } from "../http/negotiate.js";
import { enforceFieldValidation, warningHeaders } from "../openapi/field-validation.js";
import { applyJsonPatch } from "../patch/json-patch.js";
import { applyMergePatch } from "../patch/merge-patch.js";
import { applyStrategicMergePatch } from "../patch/strategic-merge.js";
import { apiVersionOf, hasStatus, type ServedResource } from "../resources/served.js";
import { PreconditionError } from "../store/mvcc.js";
import { applyBuiltinDefaults } from "./builtin-defaults.js";
import {
  type ApiResponse,
  type HandlerContext,
  type KubeObject,
  metadataOf,
  objectKey,
  present,
  qualified,
} from "./context.js";
import { hooksFor } from "./kind-hooks.js";
import { withManagedFields } from "./managed.js";
import { checkNamespaceWritable } from "./namespace-lifecycle.js";
import { parseDryRun } from "./options.js";

/** Metadata fields the server owns: clients cannot set them on create. */
const SERVER_METADATA = [
  "uid",
  "resourceVersion",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "selfLink",
  "generation",
];

export interface WriteRequest {
  readonly namespace: string | undefined;
  readonly name?: string;
  readonly subresource?: string;
  readonly query: URLSearchParams;
  readonly body: Record<string, unknown>;
  readonly userAgent?: string | undefined;
  /** Set by server-side apply, which computes managedFields itself. */
  readonly managedFieldsDone?: boolean;
  /** Keys the request body repeats (JSON.parse keeps the last), for fieldValidation. */
  readonly duplicateFields?: readonly string[];
}

function checkTypeMeta(r: ServedResource, body: Record<string, unknown>): void {
  const want = apiVersionOf(r);
  if (body.apiVersion !== undefined && body.apiVersion !== want)
    throw errors.badRequest(
      `the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${want})`,
    );
  if (body.kind !== undefined && body.kind !== r.kind)
    throw errors.badRequest(
      `the kind in the data (${String(body.kind)}) does not match the expected kind (${r.kind})`,
    );
}

function nameRule(r: ServedResource): "label" | "subdomain" {
  return r.group === "" && r.resource === "namespaces" ? "label" : "subdomain";
}

function validate(r: ServedResource, obj: KubeObject, old?: KubeObject): void {
  const meta = metadataOf(obj);
  const name = String(meta.name ?? "");
  const errs: FieldError[] = [...validateName(name, nameRule(r)), ...validateLabelsAndAnnotations(meta)];
  if (r.custom) errs.push(...r.custom.validate(obj, old));
  if (r.strategy?.validate) errs.push(...r.strategy.validate(obj, old));
  if (errs.length > 0) throw errors.invalid(r.kind, r.group, name, errs);
}

export async function createObject(
  ctx: HandlerContext,
  r: ServedResource,
  req: WriteRequest,
): Promise<ApiResponse> {
  const checked = enforceFieldValidation(r, req.body, req.query, "create", req.duplicateFields);
  const res = await createChecked(ctx, r, { ...req, body: checked.object });
  return { ...res, headers: { ...res.headers, ...warningHeaders(checked.warnings) } };
}

async function createChecked(
  ctx: HandlerContext,
  r: ServedResource,
  req: WriteRequest,
): Promise<ApiResponse> {
  const dryRun = parseDryRun(req.query);
  const body = req.body;
  checkTypeMeta(r, body);
  const meta = { ...metadataOf(body) };
  if (r.namespaced) {
    if (meta.namespace !== undefined && meta.namespace !== "" && meta.namespace !== req.namespace)
      throw errors.badRequest(
        "the namespace of the provided object does not match the namespace sent on the request",
      );
    meta.namespace = req.namespace;
  } else delete meta.namespace;
  if (!meta.name) {
    if (typeof meta.generateName === "string" && meta.generateName !== "")
      meta.name = generateName(meta.generateName);
    else
      throw errors.invalid(r.kind, r.group, "", [
        { type: "FieldValueRequired", field: "metadata.name", detail: "name or generateName is required" },
      ]);
  }
  const name = String(meta.name);
  for (const k of SERVER_METADATA) delete meta[k];
  meta.uid = randomUUID();
  meta.creationTimestamp = nowTimestamp(ctx.now());
  if (r.tracksGeneration) meta.generation = 1;

  let obj: KubeObject = {
    ...body,
    apiVersion: apiVersionOf(r),
    kind: r.kind,
    metadata: meta as KubeObject["metadata"],
  };
  if (r.custom) {
    // A CR keeps a status it was created with unless the status subresource owns it.
    if (hasStatus(r)) delete obj.status;
    r.custom.applyDefaults(obj);
  } else {
    applyBuiltinDefaults(r.group, r.resource, obj);
    if (hasStatus(r)) obj.status = {};
  }
  hooksFor(r.group, r.resource).prepareCreate?.(obj);
  r.strategy?.prepareCreate?.(obj);
  validate(r, obj);
  if (r.namespaced) checkNamespaceWritable(ctx, r, req.namespace as string, name);
  if (!req.managedFieldsDone) obj = withManagedFields(ctx, r, undefined, obj, req);

  const key = objectKey(r, req.namespace, name);
  if (dryRun) {
    if (ctx.store.get(r.bucket, key)) throw errors.alreadyExists(qualified(r), name);
    return { code: 201, body: present(r, obj) };
  }
  try {
    return { code: 201, body: present(r, ctx.store.create(r.bucket, key, obj)) };
  } catch (e) {
    if (e instanceof PreconditionError) throw errors.alreadyExists(qualified(r), name);
    throw e;
  }
}

/** What a change is allowed to touch: the main resource leaves status alone, /status touches only status. */
function mergeForSubresource(
  r: ServedResource,
  old: KubeObject,
  next: KubeObject,
  subresource: string | undefined,
): KubeObject {
  if (subresource === "status") {
    return { ...old, metadata: mergeStatusMetadata(old, next), status: next.status } as KubeObject;
  }
  if (hasStatus(r)) {
    const out = { ...next };
    if (old.status === undefined) delete out.status;
    else out.status = old.status;
    return out;
  }
  return next;
}

/**
 * A /status write keeps the stored metadata; only managedFields come from the write (they are
 * recomputed for Update operations and computed by server-side apply).
 */
function mergeStatusMetadata(old: KubeObject, next: KubeObject): KubeObject["metadata"] {
  const mf = next.metadata.managedFields;
  return mf === undefined ? old.metadata : { ...old.metadata, managedFields: mf };
}

function specChanged(old: KubeObject, next: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { metadata: _m, status: _s, ...rest } = o;
    return JSON.stringify(rest);
  };
  return strip(old) !== strip(next);
}

type UpdateRequest = {
  namespace: string | undefined;
  name: string;
  subresource?: string;
  query: URLSearchParams;
  userAgent?: string | undefined;
  managedFieldsDone?: boolean;
  duplicateFields?: readonly string[];
};

/** Shared tail of PUT and PATCH: identity checks, server-owned metadata, generation, no-op detection, commit. */
export async function commitUpdate(
  ctx: HandlerContext,
  r: ServedResource,
  req: UpdateRequest,
  old: KubeObject,
  candidate: Record<string, unknown>,
  requireResourceVersion: boolean,
): Promise<ApiResponse> {
  const kind = requireResourceVersion ? "update" : "patch";
  const checked = enforceFieldValidation(r, candidate, req.query, kind, req.duplicateFields);
  const res = await commitChecked(ctx, r, req, old, checked.object, requireResourceVersion);
  return { ...res, headers: { ...res.headers, ...warningHeaders(checked.warnings) } };
}

async function commitChecked(
  ctx: HandlerContext,
  r: ServedResource,
  req: UpdateRequest,
  old: KubeObject,
  candidate: Record<string, unknown>,
  requireResourceVersion: boolean,
): Promise<ApiResponse> {
  const dryRun = parseDryRun(req.query);
  checkTypeMeta(r, candidate);
  const newMeta = { ...metadataOf(candidate) };
  const oldMeta = metadataOf(old);
  if (newMeta.name !== undefined && newMeta.name !== req.name)
    throw errors.badRequest(
      `the name of the object (${String(newMeta.name)}) does not match the name on the URL (${req.name})`,
    );
  if (
    r.namespaced &&
    newMeta.namespace !== undefined &&
    newMeta.namespace !== "" &&
    newMeta.namespace !== req.namespace
  )
    throw errors.badRequest(
      "the namespace of the provided object does not match the namespace sent on the request",
    );
  const rvRaw = newMeta.resourceVersion;
  if (requireResourceVersion && (rvRaw === undefined || rvRaw === "") && !r.allowUnconditionalUpdate)
    throw errors.invalid(r.kind, r.group, req.name, [
      {
        type: "FieldValueInvalid",
        field: "metadata.resourceVersion",
        value: 0,
        detail: "must be specified for an update",
      },
    ]);
  if (rvRaw !== undefined && rvRaw !== "" && String(rvRaw) !== String(oldMeta.resourceVersion))
    throw errors.staleResourceVersion(qualified(r), req.name);
  if (oldMeta.deletionTimestamp !== undefined) {
    const oldF = new Set((oldMeta.finalizers as string[] | undefined) ?? []);
    const added = ((newMeta.finalizers as string[] | undefined) ?? []).filter((f) => !oldF.has(f));
    if (added.length > 0)
      throw errors.invalid(r.kind, r.group, req.name, [
        {
          type: "FieldValueForbidden",
          field: "metadata.finalizers",
          detail: "no new finalizers can be added if the object is being deleted",
        },
      ]);
  }
  for (const k of [
    "uid",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "generation",
    "resourceVersion",
  ]) {
    if (oldMeta[k] === undefined) delete newMeta[k];
    else newMeta[k] = oldMeta[k];
  }
  newMeta.name = req.name;
  if (r.namespaced) newMeta.namespace = req.namespace;
  else delete newMeta.namespace;

  let next = mergeForSubresource(
    r,
    old,
    { ...candidate, apiVersion: apiVersionOf(r), kind: r.kind, metadata: newMeta } as KubeObject,
    req.subresource,
  );
  // Defaulting mutates in place; the candidate may share subtrees with the stored object.
  next = structuredClone(next);
  if (r.custom) r.custom.applyDefaults(next);
  else applyBuiltinDefaults(r.group, r.resource, next);
  r.strategy?.prepareUpdate?.(next, old, req.subresource);
  if (r.tracksGeneration && specChanged(old, next))
    next = { ...next, metadata: { ...next.metadata, generation: Number(oldMeta.generation ?? 0) + 1 } };
  validate(r, next, old);
  if (!req.managedFieldsDone) next = withManagedFields(ctx, r, old, next, req);

  // Nothing changed: upstream skips the write, so the resourceVersion stays.
  const { resourceVersion: _o, ...oldRest } = oldMeta;
  const { resourceVersion: _n, ...nextRest } = next.metadata;
  if (JSON.stringify({ ...old, metadata: oldRest }) === JSON.stringify({ ...next, metadata: nextRest })) {
    return { code: 200, body: present(r, old) };
  }
  const finalizers = next.metadata.finalizers as string[] | undefined;
  const key = objectKey(r, req.namespace, req.name);
  if (next.metadata.deletionTimestamp !== undefined && (!finalizers || finalizers.length === 0)) {
    // The last finalizer went away: the pending deletion completes now.
    if (dryRun) return { code: 200, body: present(r, next) };
    return { code: 200, body: present(r, ctx.store.delete(r.bucket, key)) };
  }
  if (dryRun) return { code: 200, body: present(r, next) };
  try {
    return {
      code: 200,
      body: present(r, ctx.store.update(r.bucket, key, next, Number(oldMeta.resourceVersion))),
    };
  } catch (e) {
    if (e instanceof PreconditionError) throw errors.staleResourceVersion(qualified(r), req.name);
    throw e;
  }
}

function current(
  ctx: HandlerContext,
  r: ServedResource,
  namespace: string | undefined,
  name: string,
): KubeObject {
  const obj = ctx.store.get(r.bucket, objectKey(r, namespace, name));
  if (!obj) throw errors.notFound(qualified(r), name);
  return present(r, obj);
}

export async function updateObject(
  ctx: HandlerContext,
  r: ServedResource,
  req: WriteRequest & { name: string },
): Promise<ApiResponse> {
  const old = current(ctx, r, req.namespace, req.name);
  return commitUpdate(ctx, r, req, old, req.body, true);
}

export async function patchObject(
  ctx: HandlerContext,
  r: ServedResource,
  req: Omit<WriteRequest, "body"> & { name: string; patchType: BodyType; patch: unknown },
): Promise<ApiResponse> {
  if (req.patchType === "apply") return applyObject(ctx, r, { ...req, patch: req.patch });
  if (req.query.has("force"))
    throw errors.invalid("PatchOptions", "meta.k8s.io", "", [
      { type: "FieldValueForbidden", field: "force", detail: "may not be specified for non-apply patch" },
    ]);
  const old = current(ctx, r, req.namespace, req.name);
  let patched: unknown;
  switch (req.patchType) {
    case "json-patch":
      patched = applyJsonPatch(old, req.patch);
      break;
    case "merge-patch":
      patched = applyMergePatch(old, req.patch);
      break;
    case "strategic-merge-patch":
      if (r.custom)
        throw errors.unsupportedMediaType([
          "application/json-patch+json",
          "application/merge-patch+json",
          "application/apply-patch+yaml",
        ]);
      patched = applyStrategicMergePatch(
        old,
        req.patch,
        schemaFor({ group: r.group, version: r.version, kind: r.kind }),
      );
      break;
    default:
      throw errors.unsupportedMediaType([
        "application/json-patch+json",
        "application/merge-patch+json",
        "application/strategic-merge-patch+json",
        "application/apply-patch+yaml",
      ]);
  }
  if (typeof patched !== "object" || patched === null || Array.isArray(patched))
    throw errors.badRequest("the patch produced something that is not an object");
  return commitUpdate(ctx, r, req, old, patched as Record<string, unknown>, false);
}
