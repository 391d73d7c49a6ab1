/**
 * A TokenRequest's `boundObjectRef`: the token is bound to a Pod, Secret or Node that must exist
 * (404) and, when the reference names a uid, be that very object (409). A token bound to a pod
 * carries the pod's name and uid, and the name and uid of the node it runs on, as extra user
 * information that TokenReview reports (upstream pkg/serviceaccount claims); a token bound to a
 * node carries the node's. This is what a pod's projected kube-api-access token is.
 */
import { errors } from "../api/status.js";
import type { StoredObject } from "../storage/mvcc.js";
import type { HandlerContext } from "./handlers/context.js";

type Json = Record<string, unknown>;

const PREFIX = "authentication.kubernetes.io/";
const BINDABLE: Record<string, { bucket: string; resource: string; namespaced: boolean }> = {
  Pod: { bucket: "/pods", resource: "pods", namespaced: true },
  Secret: { bucket: "/secrets", resource: "secrets", namespaced: true },
  Node: { bucket: "/nodes", resource: "nodes", namespaced: false },
};

function nodeExtra(ctx: HandlerContext, nodeName: string): Record<string, string[]> {
  const node = ctx.store.get("/nodes", nodeName);
  return {
    [`${PREFIX}node-name`]: [nodeName],
    ...(node ? { [`${PREFIX}node-uid`]: [String(node.metadata.uid)] } : {}),
  };
}

function extraOf(ctx: HandlerContext, kind: string, bound: StoredObject): Record<string, string[]> {
  const name = String(bound.metadata.name);
  if (kind === "Node") return nodeExtra(ctx, name);
  if (kind !== "Pod") return {};
  const nodeName = (bound.spec as Json | undefined)?.nodeName;
  return {
    ...(typeof nodeName === "string" && nodeName !== "" ? nodeExtra(ctx, nodeName) : {}),
    [`${PREFIX}pod-name`]: [name],
    [`${PREFIX}pod-uid`]: [String(bound.metadata.uid)],
  };
}

/** The extra user information the bound object gives the token; throws when it cannot be bound. */
export function boundTokenExtra(
  ctx: HandlerContext,
  namespace: string,
  ref: unknown,
): Record<string, string[]> {
  if (typeof ref !== "object" || ref === null) return {};
  const { apiVersion = "", kind = "", name = "", uid = "" } = ref as Record<string, string>;
  const target = apiVersion === "v1" ? BINDABLE[kind] : undefined;
  if (!target) {
    const [group, version] = apiVersion.includes("/") ? apiVersion.split("/", 2) : ["", apiVersion];
    throw errors.badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  }
  const bound = ctx.store.get(target.bucket, target.namespaced ? `${namespace}/${name}` : name);
  if (!bound) throw errors.notFound({ group: "", resource: target.resource }, name);
  if (uid !== "" && uid !== bound.metadata.uid)
    throw errors.conflict(
      { group: "", resource: kind },
      name,
      `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  return extraOf(ctx, kind, bound);
}
