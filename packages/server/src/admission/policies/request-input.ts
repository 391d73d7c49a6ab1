/**
 * The CEL input of a request (cel/admission's AdmissionInput) from admission attributes: object
 * and oldObject, the AdmissionRequest fields, the request's Namespace from the store (none for
 * cluster-scoped resources and for a Namespace itself), and whether the requester is authorized.
 */
import type { AdmissionInput } from "../../cel/admission/index.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";

export function admissionInput(
  a: AdmissionAttributes,
  ctx: AdmissionContext,
  params: unknown = null,
): AdmissionInput {
  const isNamespace = a.kind.group === "" && a.kind.kind === "Namespace";
  const namespace =
    a.namespace !== "" && !isNamespace ? ctx.store.get("/namespaces", a.namespace) : undefined;
  const user = a.userInfo;
  return {
    object: a.operation === "DELETE" ? null : (a.object ?? null),
    oldObject: a.operation === "CREATE" ? null : (a.oldObject ?? null),
    request: {
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
    },
    namespace,
    params,
    authorized: user !== undefined && user.restricted !== true,
  };
}
