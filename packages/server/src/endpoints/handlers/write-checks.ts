/** Checks every write makes: type meta, identity against the URL, metadata and object validation. */
import { schemaFor, type TypeNode } from "@kubesdk/models";
import { cloneToExtend } from "../../api/copy.js";
import { errors, type FieldError } from "../../api/status.js";
import type { Steps } from "../../api/steps.js";
import { typeError, typeMismatch } from "../../openapi/typed-check.js";
import { decodeTyped, type TypedDecode } from "../../openapi/typed-decode.js";
import { dataSizeErrors } from "../../resources/data-limits.js";
import { apiVersionOf, type ServedResource } from "../../resources/served.js";
import { anyName, dnsSubdomain, pathSegment } from "../../validation/name-formats.js";
import { type KindNameRule, nameFormatOf, nameRuleFor } from "../../validation/names.js";
import { validateObjectMeta, validateObjectMetaNames } from "../../validation/object-meta.js";
import { type KubeObject, metadataOf } from "./context.js";

/**
 * The decode of a built-in object's body or patched result in one walk (openapi/typed-decode.ts):
 * type check, canonical quantities and unknown fields, giving a private copy without them; throws
 * the type check's error. Undefined for a kind without schema metadata.
 */
export function decodeBuiltin(
  r: ServedResource,
  obj: Record<string, unknown>,
  source: "body" | "patch",
): TypedDecode | undefined {
  const schema = builtinSchema(r);
  if (!schema) return undefined;
  const decoded = decodeTyped(obj, schema);
  if (decoded) return decoded;
  // The walk left `obj` as it was: the type check's own walk words its first mismatch.
  throw typeError(r, typeMismatch(r.kind, schema, obj) ?? "", obj, source);
}

/**
 * The defaults upstream gives an object as it decodes a write (a built-in kind's SetDefaults, a
 * custom resource's schema defaults), before its managed fields and admission; in place.
 */
export function defaultAsDecoded(r: ServedResource, obj: Record<string, unknown>): void {
  if (r.custom) r.custom.applyDefaults(obj);
  else r.strategy?.defaults?.(obj);
}

/** Metadata fields the server owns: clients cannot set them on create, and updates keep the stored ones. */
export const SERVER_METADATA = [
  "uid",
  "resourceVersion",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "selfLink",
  "generation",
];

/** The schema metadata of a built-in kind. */
export function builtinSchema(r: ServedResource): TypeNode | undefined {
  return schemaFor({ group: r.group, version: r.version, kind: r.kind });
}

/**
 * The object with the served resource's apiVersion and kind and the given metadata, keys where the
 * body had them (new ones last, as a spread gives them); copied with cloneToExtend (api/copy.ts),
 * since a body may lack apiVersion and kind.
 */
export function withTypeMeta(
  r: ServedResource,
  body: Record<string, unknown>,
  metadata: Record<string, unknown>,
): KubeObject {
  const obj = cloneToExtend(body);
  obj.apiVersion = apiVersionOf(r);
  obj.kind = r.kind;
  obj.metadata = metadata;
  return obj as KubeObject;
}

export function checkTypeMeta(r: ServedResource, body: Record<string, unknown>): void {
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

/**
 * The body's namespace (and, for writes to a named object, its name) must match the URL's; a write
 * to a named object must name it in the body too.
 */
export function checkIdentity(
  r: ServedResource,
  meta: Record<string, unknown>,
  url: { namespace: string | undefined; name?: string },
): void {
  if (url.name !== undefined && (meta.name === undefined || meta.name === ""))
    throw errors.badRequest(
      `the name of the object (${url.name} based on URL) was undeterminable: name must be provided`,
    );
  if (url.name !== undefined && meta.name !== url.name)
    throw errors.badRequest(
      `the name of the object (${String(meta.name)}) does not match the name on the URL (${url.name})`,
    );
  if (
    r.namespaced &&
    meta.namespace !== undefined &&
    meta.namespace !== "" &&
    meta.namespace !== url.namespace
  )
    throw errors.badRequest(
      "the namespace of the provided object does not match the namespace sent on the request",
    );
}

/**
 * The object's own validation (metadata under the kind's name rule, validation/names.ts, then the
 * kind's), then, on create and only when that passed, the common metadata pass every create gets
 * upstream, with path-segment names. Updates do not re-check the name: it cannot change. Pauses
 * (`yield`) where the kind's `validateSteps` does (api/steps.ts). Returns a promise when a custom
 * resource's expensive CEL rules run on a worker thread: validation ends when it settles.
 */
export function* validateSteps(
  r: ServedResource,
  obj: KubeObject,
  old: KubeObject | undefined,
  maxDataBytes: number,
  subresource?: string,
): Steps<Promise<void> | undefined> {
  const meta = metadataOf(obj);
  const name = String(meta.name ?? "");
  const rule = r.custom ? CUSTOM_RESOURCE_RULE : nameRuleFor(r.group, r.resource);
  const errs: FieldError[] = [];
  // Only admission can rename an update (a mutating webhook's patch): the stored name stays.
  if (old && name !== String(metadataOf(old).name ?? ""))
    errs.push({
      type: "FieldValueInvalid",
      field: "metadata.name",
      value: name,
      detail: "field is immutable",
    });
  if (rule.meta !== "none")
    errs.push(
      ...validateObjectMeta(meta, {
        nameFormat: old ? anyName : nameFormatOf(rule, obj),
        checksGenerateName: old === undefined && rule.checksGenerateName !== false,
        kubeFinalizers: rule.meta === "core",
      }),
    );
  if (!old && rule.extra) errs.push(...rule.extra(obj, name));
  errs.push(...dataSizeErrors(r, obj, maxDataBytes));
  const custom = r.custom?.validate(obj, old) ?? [];
  const own: FieldError[] = [];
  if (r.strategy?.validateSteps) own.push(...(yield* r.strategy.validateSteps(obj, old, subresource)));
  else if (r.strategy?.validate) own.push(...r.strategy.validate(obj, old, subresource));
  const metaChecked = rule.meta !== "none";
  const finish = (kind: FieldError[]) => endValidation(r, obj, old, [...errs, ...kind, ...own], metaChecked);
  if (custom instanceof Promise) return custom.then(finish);
  finish(custom);
  return undefined;
}

/**
 * The create's common metadata pass when all else passed, then the answer: a 422 with every error.
 * When the kind's metadata pass ran (`metaChecked`) and found nothing, its label, annotation, owner
 * and finalizer rows would find nothing again (this pass checks finalizers less): only the names
 * are checked again, under the path-segment format.
 */
function endValidation(
  r: ServedResource,
  obj: KubeObject,
  old: KubeObject | undefined,
  errs: FieldError[],
  metaChecked: boolean,
) {
  const meta = metadataOf(obj);
  const options = { nameFormat: pathSegment, checksGenerateName: true, kubeFinalizers: false };
  if (errs.length === 0 && !old)
    errs.push(...(metaChecked ? validateObjectMetaNames(meta, options) : validateObjectMeta(meta, options)));
  if (errs.length > 0)
    throw errors.invalid(r.kind, r.group, String(meta.name ?? ""), errs, r.custom !== undefined);
}

/** Custom resources: DNS-1123 subdomain names, apimachinery's metadata validation. */
const CUSTOM_RESOURCE_RULE: KindNameRule = { format: dnsSubdomain, meta: "generic" };

/** The uid of a stored object never changes (a patch that sets another one is a 422). */
export function checkUidUnchanged(
  r: ServedResource,
  name: string,
  meta: Record<string, unknown>,
  oldUid: unknown,
): void {
  const uid = meta.uid;
  if (uid === undefined || uid === "" || uid === oldUid) return;
  throw errors.invalid(r.kind, r.group, name, [
    { type: "FieldValueInvalid", field: "metadata.uid", value: uid, detail: "field is immutable" },
  ]);
}
