/**
 * What the four authorization.k8s.io reviews share: reading the access a review asks about, the
 * spec rules upstream validates (pkg/apis/authorization/validation in upstream's tree), and the
 * answer the server's authorizer (http/auth.ts) gives.
 *
 * The authorizer here grants everything to the users it knows and nothing to users it does not
 * (impersonated users outside system:masters). A review names a user by name and groups only, so
 * it is answered the way an impersonated request for that user would be: allowed when the groups
 * include system:masters. That keeps a review and the request it predicts in agreement, which is
 * what clients (and upstream's SubjectReview conformance test) rely on.
 */
import { type FieldError, GoSyntax } from "../../api/status.js";
import { type AccessRequest, ANONYMOUS, type UserInfo } from "../../http/auth.js";

type Json = Record<string, unknown>;

const MASTERS = "system:masters";
const EXACTLY_ONE = "exactly one of nonResourceAttributes or resourceAttributes must be specified";

const record = (v: unknown): Json | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const invalid = (field: string, value: unknown, detail: string): FieldError => ({
  type: "FieldValueInvalid",
  field,
  value,
  detail,
});

export const specOf = (obj: Json): Json => record(obj.spec) ?? {};

/** How Go renders the internal NonResourceAttributes struct in a message (no JSON tags). */
export function nonResourceValue(v: Json): GoSyntax {
  return new GoSyntax(JSON.stringify({ Path: str(v.path), Verb: str(v.verb) }));
}

/** The attribute rules every review spec obeys (self reviews skip the user rule). */
export function attributeErrors(spec: Json, withUser: boolean): FieldError[] {
  const out: FieldError[] = [];
  const resource = record(spec.resourceAttributes);
  const nonResource = record(spec.nonResourceAttributes);
  if (!resource === !nonResource)
    out.push(invalid("spec", nonResource ? nonResourceValue(nonResource) : null, EXACTLY_ONE));
  const groups = Array.isArray(spec.groups) ? spec.groups : [];
  if (withUser && str(spec.user) === "" && groups.length === 0)
    out.push(invalid("spec.user", str(spec.user), "at least one of user or group must be specified"));
  return out;
}

/** Metadata a review may carry: nothing, or (LocalSubjectAccessReview) its namespace. */
export function metadataErrors(obj: Json, allowNamespace: boolean): FieldError[] {
  const meta = { ...(record(obj.metadata) ?? {}) };
  for (const k of ["managedFields", "creationTimestamp", ...(allowNamespace ? ["namespace"] : [])])
    delete meta[k];
  if (Object.values(meta).every((v) => v === undefined || v === null || v === "")) return [];
  const detail = allowNamespace ? "must be empty except for namespace" : "must be empty";
  return [invalid("metadata", obj.metadata, detail)];
}

/** The access a review spec asks about, in the authorizer's terms. */
export function accessOf(spec: Json): AccessRequest {
  const nonResource = record(spec.nonResourceAttributes);
  if (nonResource) return { path: str(nonResource.path), verb: str(nonResource.verb) };
  const a = record(spec.resourceAttributes) ?? {};
  const optional = (v: unknown): string | undefined => (str(v) === "" ? undefined : str(v));
  return {
    verb: str(a.verb),
    group: str(a.group),
    resource: str(a.resource),
    subresource: optional(a.subresource),
    namespace: optional(a.namespace),
    name: optional(a.name),
  };
}

/** The user a (Local)SubjectAccessReview names, as the authorizer would see it impersonated. */
export function reviewedUser(spec: Json): UserInfo {
  const name = str(spec.user);
  const groups = (Array.isArray(spec.groups) ? spec.groups : []).map(str);
  if (name === ANONYMOUS.name) return ANONYMOUS;
  return {
    name,
    groups,
    ...(str(spec.uid) ? { uid: str(spec.uid) } : {}),
    restricted: !groups.includes(MASTERS),
  };
}

/** The review's status: allowed, or denied without a reason (as RBAC answers an unbound user). */
export function accessStatus(allowed: boolean): Json {
  return { allowed };
}
