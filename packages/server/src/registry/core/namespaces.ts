/** Namespaces: labelled with their own name, the "kubernetes" finalizer, Active at create. */
import type { KindStrategy } from "../strategy.js";

function labelWithName(obj: Record<string, unknown>): void {
  const metadata = obj.metadata as Record<string, unknown>;
  const name = String(metadata.name);
  metadata.labels = { ...(metadata.labels as object), "kubernetes.io/metadata.name": name };
}

export const namespaces: KindStrategy = {
  group: "",
  resource: "namespaces",
  fieldLabels: ["status.phase"],
  prepareCreate(obj) {
    // The apiserver labels every namespace with its own name: defaulting does it when the name is
    // known (so the label is validated with it), canonicalize when the name was generated.
    if (!(obj.metadata as Record<string, unknown>).generateName) labelWithName(obj);
    const spec = (obj.spec ?? {}) as Record<string, unknown>;
    if (!Array.isArray(spec.finalizers)) spec.finalizers = ["kubernetes"];
    obj.spec = spec;
    obj.status = { phase: "Active" };
  },
  canonicalize: labelWithName,
};
