/**
 * Per-kind behaviour upstream strategies add on top of the generic store:
 * defaults set at create, and what a fresh status looks like. Keyed by
 * `group/resource`; a kind without an entry gets the generic behaviour.
 */
import type { KubeObject } from "./context.js";

export interface KindHooks {
  /** Mutates a new object before it is stored (after generic metadata). */
  readonly prepareCreate?: (obj: KubeObject) => void;
}

const hooks: Record<string, KindHooks> = {
  "/namespaces": {
    prepareCreate(obj) {
      // The apiserver labels every namespace with its own name.
      const name = String(obj.metadata.name);
      obj.metadata.labels = { ...(obj.metadata.labels as object), "kubernetes.io/metadata.name": name };
      const spec = (obj.spec ?? {}) as Record<string, unknown>;
      if (!Array.isArray(spec.finalizers)) spec.finalizers = ["kubernetes"];
      obj.spec = spec;
      obj.status = { phase: "Active" };
    },
  },
  "/pods": {
    prepareCreate(obj) {
      obj.status = { phase: "Pending", qosClass: "BestEffort" };
    },
  },
};

export function hooksFor(group: string, resource: string): KindHooks {
  return hooks[`${group}/${resource}`] ?? {};
}
