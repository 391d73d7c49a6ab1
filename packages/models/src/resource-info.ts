/** What the registry knows about one served resource (the data behind API discovery). */

export interface SubresourceInfo {
  /** e.g. "status", "scale", "log". */
  readonly name: string;
  readonly kind: string;
  /** Set only when the subresource's kind lives in another group (e.g. Scale in autoscaling). */
  readonly group?: string;
  /** Set only when the subresource's kind lives in another version. */
  readonly version?: string;
  readonly verbs: readonly string[];
}

export interface ResourceInfo {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Kind of the list; absent for resources that cannot be listed (e.g. tokenreviews). */
  readonly listKind?: string;
  /** The resource name in URLs, e.g. "deployments". */
  readonly plural: string;
  readonly singular: string;
  readonly namespaced: boolean;
  /** Discovery verbs: create, delete, deletecollection, get, list, patch, update, watch. */
  readonly verbs: readonly string[];
  readonly subresources: readonly SubresourceInfo[];
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
}

export interface GroupVersions {
  readonly group: string;
  /** Served versions, preferred first. */
  readonly versions: readonly string[];
}

export interface GroupInfo extends GroupVersions {
  readonly preferredVersion: string;
}
