/** Group/version/kind and group/version/resource identifiers and apiVersion strings. */

export interface GroupVersionKind {
  /** API group; "" for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  /** Plural resource name, e.g. "deployments". */
  readonly resource: string;
}

/** "apps/v1" for apps, "v1" for the core group. */
export function apiVersionOf(gv: { readonly group: string; readonly version: string }): string {
  return gv.group === "" ? gv.version : `${gv.group}/${gv.version}`;
}

/** Splits an apiVersion: "apps/v1" → { group: "apps", version: "v1" }, "v1" → { group: "", version: "v1" }. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf("/");
  return slash === -1
    ? { group: "", version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
