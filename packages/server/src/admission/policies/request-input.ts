/**
 * The CEL input of a request (cel/admission's AdmissionInput) from admission attributes: object
 * and oldObject, the AdmissionRequest fields, the request's Namespace from the store (none for
 * cluster-scoped resources and for a Namespace itself), and whether the requester is authorized.
 */
import type { AdmissionInput, AdmissionRequestInput } from "../../cel/admission/index.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";

/** The AdmissionRequest fields CEL reads (policies and webhooks' matchConditions alike). */
export function requestInput(a: AdmissionAttributes): AdmissionRequestInput {
  const user = a.userInfo;
  return {
    kind: a.kind,
    resource: a.resource,
    ...(a.requestKind ? { requestKind: a.requestKind } : {}),
    ...(a.requestResource ? { requestResource: a.requestResource } : {}),
    subResource: a.subresource,
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: {
      username: user?.name ?? "",
      groups: user?.groups ?? [],
      ...(user?.uid ? { uid: user.uid } : {}),
      ...(user?.extra ? { extra: user.extra } : {}),
    },
    dryRun: a.dryRun,
  };
}

/** Whether the requester may do anything (the server's authorizer: no RBAC, docs/divergences.md D56). */
export function requesterAuthorized(a: AdmissionAttributes): boolean {
  return a.userInfo !== undefined && a.userInfo.restricted !== true;
}

export function admissionInput(
  a: AdmissionAttributes,
  ctx: AdmissionContext,
  params: unknown = null,
): AdmissionInput {
  const isNamespace = a.kind.group === "" && a.kind.kind === "Namespace";
  const namespace =
    a.namespace !== "" && !isNamespace ? ctx.store.get("/namespaces", a.namespace) : undefined;
  return {
    object: a.operation === "DELETE" ? null : (a.object ?? null),
    oldObject: a.operation === "CREATE" ? null : (a.oldObject ?? null),
    request: requestInput(a),
    namespace,
    params,
    authorized: requesterAuthorized(a),
  };
}
