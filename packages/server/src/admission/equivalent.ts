/**
 * A webhook or admission policy registered for another version of the requested custom resource
 * (matchPolicy Equivalent) sees the request as upstream shows it: the object and old object
 * converted to its version (through the CRD's conversion, so a conversion webhook runs first),
 * `kind` and `resource` of that version and the request's own as `requestKind` and
 * `requestResource`. A mutation's result is converted back to the request's version.
 */
import type { AdmissionAttributes } from "./attributes.js";

type Json = Record<string, unknown>;

const apiVersionIn = (group: string, version: string) => (group ? `${group}/${version}` : version);

/** `object` (in `a`'s version, or unset) converted to `version`. */
async function converted(a: AdmissionAttributes, object: Json | undefined, version: string) {
  if (object === undefined || a.equivalents === undefined) return object;
  // The object may not carry its apiVersion yet (a create's body is decoded without it).
  const from = { ...object, apiVersion: apiVersionIn(a.kind.group, a.kind.version), kind: a.kind.kind };
  return a.equivalents.convert(from, version);
}

/** The attributes a webhook or policy registered for `version` sees. */
export async function versionedAttributes(
  a: AdmissionAttributes,
  version: string,
): Promise<AdmissionAttributes> {
  const [object, oldObject] = await Promise.all([
    converted(a, a.object, version),
    converted(a, a.oldObject, version),
  ]);
  return {
    ...a,
    kind: { ...a.kind, version },
    resource: { ...a.resource, version },
    requestKind: a.kind,
    requestResource: a.resource,
    object,
    oldObject,
  };
}

/** A mutated object of the webhook's version, back in the request's version. */
export async function inRequestVersion(request: AdmissionAttributes, object: Json): Promise<Json> {
  const equivalents = request.equivalents;
  if (equivalents === undefined) return object;
  const back = { ...(await equivalents.convert(object, request.kind.version)) };
  // Fields the request's object did not carry (converted() added them) stay away.
  if (request.object?.apiVersion === undefined) delete back.apiVersion;
  if (request.object?.kind === undefined) delete back.kind;
  return back;
}
