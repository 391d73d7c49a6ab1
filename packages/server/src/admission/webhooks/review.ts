/**
 * AdmissionReview v1: the request a webhook receives and the checks its answer must pass before
 * anything in it is used (upstream's request/admissionreview.go, behaviour only). A failed check is
 * a call failure (the webhook's failurePolicy applies), never a rejection.
 */
import { randomUUID } from "node:crypto";
import type { AdmissionAttributes } from "../attributes.js";

type Json = Record<string, unknown>;

/** Why a webhook's answer could not be used; the message is upstream's. */
export class WebhookCallError extends Error {}

const OPTIONS_KIND = { CREATE: "CreateOptions", UPDATE: "UpdateOptions", DELETE: "DeleteOptions" } as const;

/** The request's operation options as upstream sends them (CONNECT has none here). */
function optionsOf(a: AdmissionAttributes): Json | null {
  if (a.operation === "CONNECT") return null;
  const kind = OPTIONS_KIND[a.operation];
  const dryRun = a.dryRun ? { dryRun: ["All"] } : {};
  return { kind, apiVersion: "meta.k8s.io/v1", ...dryRun };
}

function userInfoOf(a: AdmissionAttributes): Json {
  const u = a.userInfo;
  if (!u) return {};
  return {
    username: u.name,
    ...(u.uid ? { uid: u.uid } : {}),
    ...(u.groups.length > 0 ? { groups: u.groups } : {}),
    ...(u.extra && Object.keys(u.extra).length > 0 ? { extra: u.extra } : {}),
  };
}

/** The namespace admission sees: a Namespace's own name for requests on Namespaces, else the request's. */
function namespaceOf(a: AdmissionAttributes): string {
  const isNamespace = a.resource.group === "" && a.resource.resource === "namespaces";
  return isNamespace ? a.name : a.namespace;
}

export interface ReviewRequest {
  readonly uid: string;
  readonly body: Json;
}

/** The AdmissionReview sent for `a`; `object` is the object as it stands for this webhook. */
export function reviewRequest(
  a: AdmissionAttributes,
  object: Record<string, unknown> | undefined,
): ReviewRequest {
  const uid = randomUUID();
  const gvk = { group: a.kind.group, version: a.kind.version, kind: a.kind.kind };
  const gvr = { group: a.resource.group, version: a.resource.version, resource: a.resource.resource };
  const sub = a.subresource ? { subResource: a.subresource } : {};
  const requestSub = a.subresource ? { requestSubResource: a.subresource } : {};
  const namespace = namespaceOf(a);
  const request = {
    uid,
    kind: gvk,
    resource: gvr,
    ...sub,
    requestKind: a.requestKind ?? gvk,
    requestResource: a.requestResource ?? gvr,
    ...requestSub,
    ...(a.name ? { name: a.name } : {}),
    ...(namespace ? { namespace } : {}),
    operation: a.operation,
    userInfo: userInfoOf(a),
    object: object ?? null,
    oldObject: a.oldObject ?? null,
    dryRun: a.dryRun,
    options: optionsOf(a),
  };
  return { uid, body: { kind: "AdmissionReview", apiVersion: "admission.k8s.io/v1", request } };
}

export interface ReviewResponse {
  readonly allowed: boolean;
  readonly result: Json | undefined;
  readonly patch: string | undefined;
  readonly patchType: string | undefined;
  readonly warnings: readonly string[];
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

function invalid(why: string): WebhookCallError {
  return new WebhookCallError(`received invalid webhook response: ${why}`);
}

/** The checks of upstream's VerifyAdmissionResponse, in its order. */
export function verifyResponse(uid: string, mutating: boolean, review: unknown): ReviewResponse {
  const r = (typeof review === "object" && review !== null ? review : {}) as Json;
  const response = r.response as Json | undefined;
  if (typeof response !== "object" || response === null) throw invalid("webhook response was absent");
  if (response.uid !== uid)
    throw invalid(
      `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(String(response.uid ?? ""))}`,
    );
  if (r.apiVersion !== "admission.k8s.io/v1" || r.kind !== "AdmissionReview") {
    const got = `${String(r.apiVersion ?? "")}, Kind=${String(r.kind ?? "")}`;
    throw invalid(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${got}`);
  }
  const patch = typeof response.patch === "string" && response.patch !== "" ? response.patch : undefined;
  const patchType = response.patchType as string | undefined;
  if (mutating) {
    if (patch !== undefined && patchType === undefined)
      throw invalid("webhook returned response.patch but not response.patchType");
    if (patch === undefined && patchType !== undefined)
      throw invalid("webhook returned response.patchType but not response.patch");
    if (patchType === "") throw invalid(`webhook returned invalid response.patchType of ""`);
  } else {
    if (patch !== undefined) throw invalid("validating webhook may not return response.patch");
    if (patchType !== undefined) throw invalid("validating webhook may not return response.patchType");
  }
  return {
    allowed: response.allowed === true,
    result: response.status as Json | undefined,
    patch,
    patchType,
    warnings: Array.isArray(response.warnings) ? response.warnings.map(String) : [],
    auditAnnotations: (response.auditAnnotations ?? {}) as Record<string, string>,
  };
}
