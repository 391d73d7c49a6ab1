/**
 * Subresources the control plane's components write: `POST pods/<name>/binding`
 * (the scheduler assigns a pod to a node) and `PUT namespaces/<name>/finalize`
 * (the namespace controller removes a spec finalizer). Bodies may be JSON or
 * protobuf, as client-go sends them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { nowTimestamp } from "../api/names.js";
import { errors } from "../api/status.js";
import { type AuthSettings, authorize, type UserInfo } from "../http/auth.js";
import { readBody } from "../http/body.js";
import { decodeObjectBody, decodeProtobufBody } from "../http/decode-object.js";
import { ACCEPTED_TYPES, bodyTypeOf, negotiate } from "../http/negotiate.js";
import { writeBody } from "../http/respond.js";
import { deletionCompletes } from "./handlers/commit-update.js";
import type { HandlerContext, KubeObject } from "./handlers/context.js";
import { claimingPaths } from "./route-extension.js";

const BINDING = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/binding$/;
const FINALIZE = /^\/api\/v1\/namespaces\/([^/]+)\/finalize$/;
const PODS = { group: "", resource: "pods" };
const NAMESPACES = { group: "", resource: "namespaces" };

async function readKind(req: IncomingMessage, ctx: HandlerContext, kind: string) {
  const type = bodyTypeOf(req.headers["content-type"]);
  if (type !== "json" && type !== "yaml" && type !== "protobuf")
    throw errors.unsupportedMediaType(ACCEPTED_TYPES);
  const raw = await readBody(req, ctx.settings.maxBodyBytes);
  return type === "protobuf" ? decodeProtobufBody(raw, kind) : decodeObjectBody(raw, type);
}

export function coreSubresourceRoutes(ctx: HandlerContext, auth: AuthSettings) {
  return claimingPaths(
    (path) => BINDING.test(path) || FINALIZE.test(path),
    async (req: IncomingMessage, res: ServerResponse, url: URL, user: UserInfo): Promise<boolean> => {
      const binding = BINDING.exec(url.pathname);
      const finalize = binding ? null : FINALIZE.exec(url.pathname);
      if (!binding && !finalize) return false;
      const choice = negotiate(req.headers.accept, { protobuf: true, shapes: [] });
      if (!choice) throw errors.notAcceptable(ACCEPTED_TYPES);
      if (binding) {
        const [namespace, name] = [
          decodeURIComponent(binding[1] as string),
          decodeURIComponent(binding[2] as string),
        ];
        if (req.method !== "POST")
          throw errors.methodNotSupported({ ...PODS, resource: "pods/binding" }, "get");
        authorize(user, auth, { verb: "create", ...PODS, subresource: "binding", namespace, name });
        bindPod(ctx, namespace, name, await readKind(req, ctx, "Binding"));
        const status = { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 };
        writeBody(res, 201, status, choice);
        return true;
      }
      const name = decodeURIComponent((finalize as RegExpExecArray)[1] as string);
      if (req.method !== "PUT")
        throw errors.methodNotSupported({ ...NAMESPACES, resource: "namespaces/finalize" }, "get");
      authorize(user, auth, { verb: "update", ...NAMESPACES, subresource: "finalize", name });
      writeBody(res, 200, finalizeNamespace(ctx, name, await readKind(req, ctx, "Namespace")), choice);
      return true;
    },
  );
}

/** Assigns the pod to the binding's node, as the scheduler's bind does. */
function bindPod(ctx: HandlerContext, namespace: string, name: string, body: Record<string, unknown>): void {
  const meta = (body.metadata ?? {}) as { name?: string; annotations?: Record<string, string> };
  const target = (body.target ?? {}) as { kind?: string; name?: string };
  if (meta.name !== undefined && meta.name !== name)
    throw errors.badRequest("name in URL does not match name in Binding object");
  if (target.kind !== undefined && target.kind !== "" && target.kind !== "Node")
    throw errors.invalid("Binding", "", name, [
      {
        type: "FieldValueNotSupported",
        field: "target.kind",
        value: target.kind,
        detail: 'must be empty or "Node"',
      },
    ]);
  if (!target.name)
    throw errors.invalid("Binding", "", name, [
      { type: "FieldValueRequired", field: "target.name", detail: "Required value" },
    ]);
  const key = `${namespace}/${name}`;
  const pod = ctx.store.get("/pods", key) as KubeObject | undefined;
  if (!pod) throw errors.notFound(PODS, name);
  if (pod.metadata.deletionTimestamp !== undefined)
    throw errors.conflict(PODS, name, `pod ${name} is being deleted, cannot be assigned to a host`);
  const spec = (pod.spec ?? {}) as Record<string, unknown>;
  if (spec.nodeName)
    throw errors.conflict(PODS, name, `pod ${name} is already assigned to node "${String(spec.nodeName)}"`);
  const status = (pod.status ?? {}) as { conditions?: { type: string; status: string }[] };
  const conditions = (status.conditions ?? []).filter((c) => c.type !== "PodScheduled");
  const scheduled = {
    type: "PodScheduled",
    status: "True",
    lastProbeTime: null,
    lastTransitionTime: nowTimestamp(ctx.now()),
  };
  const annotations = { ...(pod.metadata.annotations as object), ...meta.annotations };
  ctx.store.update("/pods", key, {
    ...pod,
    metadata: { ...pod.metadata, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) },
    spec: { ...spec, nodeName: target.name },
    status: { ...status, conditions: [...conditions, scheduled] },
  });
}

/** Replaces the namespace's spec.finalizers (the rest of the body is ignored, status kept). */
function finalizeNamespace(ctx: HandlerContext, name: string, body: Record<string, unknown>): KubeObject {
  const ns = ctx.store.get("/namespaces", name) as KubeObject | undefined;
  if (!ns) throw errors.notFound(NAMESPACES, name);
  const rv = (body.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
  if (rv && rv !== ns.metadata.resourceVersion) throw errors.staleResourceVersion(NAMESPACES, name);
  const finalizers = ((body.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []) as string[];
  const spec = { ...(ns.spec as object), finalizers };
  if (finalizers.length === 0) delete (spec as { finalizers?: string[] }).finalizers;
  const next = { ...ns, spec } as KubeObject;
  // No finalizer left on a deleted namespace: the update completes the deletion.
  const namespaces = ctx.resources.find("", "v1", "namespaces");
  let saved: KubeObject;
  if (namespaces && deletionCompletes(namespaces, ns, next)) {
    ctx.store.delete("/namespaces", name);
    saved = next;
  } else saved = ctx.store.update("/namespaces", name, next) as KubeObject;
  return { kind: "Namespace", apiVersion: "v1", ...saved } as KubeObject;
}
