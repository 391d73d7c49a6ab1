/**
 * NamespaceLifecycle: nothing is created in a namespace that does not exist (404) or is being
 * terminated (403, cause NamespaceTerminating). Emptying a Terminating namespace is the namespace
 * controller's work (controllers/namespace-controller.ts).
 *
 * Upstream runs this plugin first and in the mutating phase. Here it runs in the validating phase,
 * where the server always made this check (after validation, on the final name): a request that
 * is both invalid and aimed at a missing namespace is answered 422 here, 404 upstream.
 */
import { errors, failure } from "../../api/status.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";

const NAMESPACES = { group: "", resource: "namespaces" };

export const namespaceLifecycle: AdmissionPlugin = {
  name: "NamespaceLifecycle",
  handles: handlesOnly("CREATE"),
  validate(a: AdmissionAttributes, ctx: AdmissionContext): void {
    if (a.namespace === "") return;
    const ns = ctx.store.get("/namespaces", a.namespace);
    if (!ns) throw errors.notFound(NAMESPACES, a.namespace);
    const meta = (ns.metadata ?? {}) as { deletionTimestamp?: unknown };
    const phase = (ns.status as { phase?: string } | undefined)?.phase;
    if (meta.deletionTimestamp === undefined && phase !== "Terminating") return;
    const message = `unable to create new content in namespace ${a.namespace} because it is being terminated`;
    const { group, resource } = a.resource;
    throw failure(
      403,
      "Forbidden",
      `${group ? `${resource}.${group}` : resource} "${a.name}" is forbidden: ${message}`,
      {
        name: a.name,
        ...(group ? { group } : {}),
        kind: resource,
        causes: [{ reason: "NamespaceTerminating", message, field: "metadata.namespace" }],
      },
    );
  },
};
