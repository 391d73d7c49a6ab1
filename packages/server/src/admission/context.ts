/**
 * What a plugin may read besides the request: the store (namespaces, quotas, limit ranges) and the
 * clock. Kept narrower than the handlers' context so that plugins do not write through the back door;
 * the one write admission makes is ResourceQuota charging `status.used`, which upstream's plugin also
 * makes as it admits (plugins/resource-quota.ts).
 */
import type { MvccStore } from "../storage/mvcc.js";
import type { AdmissionAttributes, GroupVersionKind, GroupVersionResource } from "./attributes.js";

/** Another served version of the request's resource (the same objects in another shape). */
export interface EquivalentVersion {
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  /** Converts an object to `apiVersion` (this version, or back to the request's). */
  readonly convert: (
    object: Record<string, unknown>,
    apiVersion: string,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>;
}

export interface AdmissionContext {
  readonly store: Pick<MvccStore, "get" | "list" | "update">;
  readonly now: () => number;
  /** The other served versions of the request's resource (custom resources with several versions). */
  readonly equivalents?: (a: AdmissionAttributes) => readonly EquivalentVersion[];
}
