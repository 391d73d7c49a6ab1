/**
 * Namespace lifecycle: writes into a missing namespace are 404, into a
 * terminating one 403. Emptying a Terminating namespace is the namespace
 * controller's work (controllers/namespace-controller.ts in process).
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
