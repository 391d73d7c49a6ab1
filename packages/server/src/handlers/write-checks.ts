/** Checks every write makes: type meta, identity against the URL, metadata and object validation. */
import { schemaFor, type TypeNode } from "@kubesdk/models";
import { validateLabelsAndAnnotations } from "../api/metadata-validation.js";
import { validateName } from "../api/names.js";
import { errors, type FieldError } from "../api/status.js";
import { dataSizeErrors } from "../resources/data-limits.js";
import { apiVersionOf, type ServedResource } from "../resources/served.js";
import { type KubeObject, metadataOf } from "./context.js";

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

function nameRule(r: ServedResource): "label" | "subdomain" {
  return r.group === "" && r.resource === "namespaces" ? "label" : "subdomain";
}

/** generateName follows the name rule as a prefix: a trailing dash is allowed. */
function generateNameErrors(r: ServedResource, generateName: unknown): FieldError[] {
  if (typeof generateName !== "string" || generateName === "") return [];
  const masked = generateName.endsWith("-") ? `${generateName.slice(0, -1)}a` : generateName;
  return validateName(masked, nameRule(r), "metadata.generateName").map((e) => ({
    ...e,
    value: generateName,
  }));
}

export function validate(
  r: ServedResource,
  obj: KubeObject,
  old: KubeObject | undefined,
  maxDataBytes: number,
): void {
  const meta = metadataOf(obj);
  const name = String(meta.name ?? "");
  const errs: FieldError[] = [
    ...validateName(name, nameRule(r)),
    ...generateNameErrors(r, meta.generateName),
    ...validateLabelsAndAnnotations(meta),
  ];
  errs.push(...dataSizeErrors(r, obj, maxDataBytes));
  if (r.custom) errs.push(...r.custom.validate(obj, old));
  if (r.strategy?.validate) errs.push(...r.strategy.validate(obj, old));
  if (errs.length > 0) throw errors.invalid(r.kind, r.group, name, errs);
}

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
