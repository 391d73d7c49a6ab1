/**
 * Namespaces: labelled with their own name, the "kubernetes" finalizer, Active at create; the spec's
 * finalizers are qualified names, standard ones when without a domain (ValidateNamespace).
 */
import { type FieldError, invalid, listAt, objectAt, stringAt } from "../../validation/field-errors.js";
import { qualifiedNameProblems } from "../../validation/object-meta.js";
import { child } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

const STANDARD_FINALIZERS = new Set(["kubernetes", "orphan", "foregroundDeletion"]);

function specFinalizerErrors(obj: Record<string, unknown>): FieldError[] {
  const out: FieldError[] = [];
  for (const raw of listAt(objectAt(obj.spec).finalizers)) {
    const f = stringAt(raw);
    for (const m of qualifiedNameProblems(f)) out.push(invalid("spec.finalizers", f, m));
    if (!f.includes("/") && !STANDARD_FINALIZERS.has(f))
      out.push(
        invalid("spec.finalizers", f, "name is neither a standard finalizer name nor is it fully qualified"),
      );
  }
  return out;
}

/**
 * ValidateNamespaceStatusUpdate: the phase says whether the namespace is being deleted. The path
 * is upstream's, with its capital P.
 */
function phaseErrors(obj: Record<string, unknown>): FieldError[] {
  const phase = stringAt(objectAt(obj.status).phase);
  if (objectAt(obj.metadata).deletionTimestamp == null)
    return phase === "Active"
      ? []
      : [invalid("status.Phase", phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  return phase === "Terminating"
    ? []
    : [invalid("status.Phase", phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

function labelWithName(obj: Record<string, unknown>): void {
  const metadata = obj.metadata as Record<string, unknown>;
  const name = String(metadata.name);
  metadata.labels = { ...(metadata.labels as object), "kubernetes.io/metadata.name": name };
}

export const namespaces: KindStrategy = {
  group: "",
  resource: "namespaces",
  fieldLabels: ["status.phase"],
  // SetDefaults_NamespaceStatus: a status without a phase is Active.
  // SetDefaults_Namespace labels a namespace with its name when the request names it (so the label
  // is validated with it, and its writer owns it); canonicalize does when the name was generated.
  defaults(obj) {
    const status = child(obj, "status");
    if (!status.phase) status.phase = "Active";
    const metadata = obj.metadata as Record<string, unknown> | undefined;
    if (metadata?.name && !metadata.generateName) labelWithName(obj);
  },
  prepareCreate(obj) {
    const spec = (obj.spec ?? {}) as Record<string, unknown>;
    // The "kubernetes" finalizer is added to whatever the request asked for.
    const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers : [];
    if (!finalizers.includes("kubernetes")) spec.finalizers = [...finalizers, "kubernetes"];
    obj.spec = spec;
    obj.status = { phase: "Active" };
  },
  canonicalize: labelWithName,
  validate: (obj, old, subresource) => {
    if (subresource === "status") return phaseErrors(obj);
    return old ? [] : specFinalizerErrors(obj);
  },
};
