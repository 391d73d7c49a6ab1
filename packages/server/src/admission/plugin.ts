/**
 * An admission plugin: upstream's admission.Interface with MutationInterface / ValidationInterface.
 * A plugin names itself, says which operations it handles, and implements `admit` (may change
 * `attributes.object`), `validate` (may only reject), or both. A rejection is a thrown StatusError
 * with upstream's code (api/status.ts); a plugin may be async, so that policy engines and webhooks
 * fit the same seam.
 */
import { failure, type StatusError } from "../api/status.js";
import type { AdmissionAttributes, AdmissionOperation } from "./attributes.js";
import type { AdmissionContext } from "./context.js";

export interface AdmissionPlugin {
  /** Upstream's plugin name (`--enable-admission-plugins`), e.g. "NamespaceLifecycle". */
  readonly name: string;
  /** A fixed answer per operation: the chain asks once per operation and phase (chain.ts). */
  handles(operation: AdmissionOperation): boolean;
  /** The mutating phase: runs before defaulting, may change `attributes.object`. */
  admit?(attributes: AdmissionAttributes, ctx: AdmissionContext): void | Promise<void>;
  /** The validating phase: runs on the final object just before storage; must not change it. */
  validate?(attributes: AdmissionAttributes, ctx: AdmissionContext): void | Promise<void>;
}

/** A plugin's `handles` for a fixed set of operations (upstream: admission.NewHandler). */
export function handlesOnly(...operations: AdmissionOperation[]): (operation: AdmissionOperation) => boolean {
  const set = new Set(operations);
  return (operation) => set.has(operation);
}

/** A plugin's refusal: 403 Forbidden, `<resource> "<name>" is forbidden: <why>` (admission.NewForbidden). */
export function forbidden(a: AdmissionAttributes, why: string): StatusError {
  const { group, resource } = a.resource;
  const qualified = group ? `${resource}.${group}` : resource;
  return failure(403, "Forbidden", `${qualified} "${a.name}" is forbidden: ${why}`, {
    name: a.name,
    ...(group ? { group } : {}),
    kind: resource,
  });
}
