/**
 * Namespace lifecycle: writes into a missing namespace are 404, into a
 * terminating one 403. Deleting a namespace marks it Terminating and then,
 * standing in for kube-controller-manager's namespace controller (which a
 * bare apiserver lacks), deletes its contents and finally the namespace.
 */
import { errors, failure } from "../api/status.js";
import type { ServedResource } from "../resources/served.js";
import { type HandlerContext, metadataOf, qualified } from "./context.js";

const NAMESPACES = { group: "", resource: "namespaces" };

export function checkNamespaceWritable(
  ctx: HandlerContext,
  r: ServedResource,
  namespace: string,
  name: string,
): void {
  const ns = ctx.store.get("/namespaces", namespace);
  if (!ns) throw errors.notFound(NAMESPACES, namespace);
  const phase = (ns.status as { phase?: string } | undefined)?.phase;
  if (metadataOf(ns).deletionTimestamp !== undefined || phase === "Terminating") {
    const message = `unable to create new content in namespace ${namespace} because it is being terminated`;
    const q = qualified(r);
    throw failure(
      403,
      "Forbidden",
      `${q.group ? `${q.resource}.${q.group}` : q.resource} "${name}" is forbidden: ${message}`,
      {
        name,
        ...(q.group ? { group: q.group } : {}),
        kind: q.resource,
        causes: [{ reason: "NamespaceTerminating", message, field: "metadata.namespace" }],
      },
    );
  }
}

/** Removes everything in the namespace, then the namespace itself (its finalizer done). */
export function finalizeNamespace(ctx: HandlerContext, namespace: string): void {
  for (const r of ctx.resources.all()) {
    if (!r.namespaced) continue;
    for (const obj of ctx.store.list(r.bucket, { prefix: `${namespace}/` }).items) {
      const name = String(metadataOf(obj).name);
      if (ctx.store.get(r.bucket, `${namespace}/${name}`)) ctx.store.delete(r.bucket, `${namespace}/${name}`);
    }
  }
  const ns = ctx.store.get("/namespaces", namespace);
  if (ns) ctx.store.delete("/namespaces", namespace);
}
