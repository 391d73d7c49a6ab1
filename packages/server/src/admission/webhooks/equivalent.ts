/**
 * matchPolicy Equivalent for custom resources served in several versions: a webhook whose rules
 * name another served version of the requested resource sees the request in that version, as
 * upstream's versioned attributes show it — `kind` and `resource` of the matched version,
 * `requestKind` and `requestResource` of the request, the objects converted by the CRD's
 * conversion (a webhook conversion is a call) — and a mutating webhook's result is converted back.
 */
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext, EquivalentVersion } from "../context.js";
import type { Webhook } from "./configurations.js";
import { matchedVersion } from "./matching.js";

type Json = Record<string, unknown>;

export interface VersionedRequest {
  /** The request as the webhook sees it (the request's own attributes for an exact match). */
  readonly attributes: AdmissionAttributes;
  /** Converts an object the webhook returned back to the request's version. */
  readonly toRequestVersion: (object: Json) => Json | Promise<Json>;
}

const apiVersionOf = (gv: { readonly group: string; readonly version: string }) =>
  gv.group ? `${gv.group}/${gv.version}` : gv.version;

async function converted(eq: EquivalentVersion, object: Json | undefined): Promise<Json | undefined> {
  return object === undefined ? undefined : eq.convert(object, apiVersionOf(eq.kind));
}

/** The request in the version `w` selects; the request itself unless matched through an equivalent. */
export async function versionedRequest(
  w: Webhook,
  a: AdmissionAttributes,
  ctx: AdmissionContext,
): Promise<VersionedRequest> {
  const match = matchedVersion(w, a, ctx);
  if (match === undefined || match === "exact") return { attributes: a, toRequestVersion: (o) => o };
  const attributes: AdmissionAttributes = {
    ...a,
    kind: match.kind,
    resource: match.resource,
    requestKind: a.kind,
    requestResource: a.resource,
    object: await converted(match, a.object),
    oldObject: await converted(match, a.oldObject),
  };
  return { attributes, toRequestVersion: (o) => match.convert(o, apiVersionOf(a.kind)) };
}

/** Whether `w` matches the request exactly, so that its matchConditions can be judged at once. */
export const matchesExactly = (w: Webhook, a: AdmissionAttributes, ctx: AdmissionContext) =>
  matchedVersion(w, a, ctx) === "exact";
