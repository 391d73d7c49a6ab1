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
  /**
   * Set when these attributes show the request in an equivalent version (matchPolicy Equivalent):
   * the kind and resource the client asked for; `kind` and `resource` are then the matched version's.
   */
  readonly requestKind?: GroupVersionKind;
  readonly requestResource?: GroupVersionResource;
  /** Reinvocation of the mutating phase (set by the chain's `admit`; reinvocation.ts). */
  readonly reinvocation?: ReinvocationContext;
}
