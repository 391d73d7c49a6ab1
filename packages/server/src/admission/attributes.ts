/**
 * What an admission plugin is told about a request: upstream's admission.Attributes, as plain data.
 * The same record will feed CEL admission policies and webhooks (AdmissionReview.request), so it
 * carries everything they read: operation, kind, resource, subresource, object, oldObject, user,
 * dry-run.
 */
import type { UserInfo } from "../http/auth.js";
import type { ReinvocationContext } from "./reinvocation.js";

/** The operations admission sees; CONNECT is exec/attach/port-forward/proxy. */
export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  /** "" for the main resource, else e.g. "status", "scale". */
  readonly subresource: string;
  /** "" for cluster-scoped resources. */
  readonly namespace: string;
  /** The object's name; on a create with generateName, the generated one. */
  readonly name: string;
  /** The object being written (CREATE, UPDATE); a mutating plugin may change it in place. */
  readonly object: Record<string, unknown> | undefined;
  /** The stored object (UPDATE, DELETE). */
  readonly oldObject: Record<string, unknown> | undefined;
  readonly userInfo: UserInfo | undefined;
  /** A dry run: plugins with side effects must not cause them (upstream: sideEffects). */
  readonly dryRun: boolean;
  /** Warnings for the response's Warning header; plugins append (shared by both phases). */
  readonly warnings?: string[];
  /** Reinvocation of the mutating phase (set by the chain's `admit`; reinvocation.ts). */
  readonly reinvocation?: ReinvocationContext;
  /** The other served versions of a custom resource, for webhooks with matchPolicy Equivalent. */
  readonly equivalents?: EquivalentVersions;
  /**
   * Set when a webhook is called for an equivalent version: the request's own kind and resource
   * (AdmissionReview `requestKind`, `requestResource`), while `kind` and `resource` name the
   * version the webhook registered for.
   */
  readonly requestKind?: GroupVersionKind;
  readonly requestResource?: GroupVersionResource;
}

/** Other versions of the same group and resource, and how an object is converted to one. */
export interface EquivalentVersions {
  /** Served versions besides the request's, in the CRD's order. */
  readonly versions: readonly string[];
  /** The object in `version` (through the CRD's conversion, a webhook's included). */
  readonly convert: (
    object: Record<string, unknown>,
    version: string,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>;
}
