/**
 * Boolean query parameters as kube-apiserver decodes them into its option structs
 * (apimachinery's url.Values → bool conversion): only the first value counts, and only "0" and
 * "false" in any letter case mean false. Anything else, "yes", "2" and the empty value of
 * `?watch=` or `?watch` included, means true. No value is ever refused.
 */

/** Go's strings.EqualFold(v, "false"): ASCII case folding, plus U+017F (long s), which folds to s. */
function isGoFalse(v: string): boolean {
  return v === "0" || v.replaceAll("\u017f", "s").toLowerCase() === "false";
}

/** A plain bool field (`watch`, `allowWatchBookmarks`, `follow`, …): absent means false. */
export function queryBool(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  return v !== null && !isGoFalse(v);
}

/** A *bool field (`sendInitialEvents`, `force`, `orphanDependents`): absent means unset. */
export function queryOptionalBool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  return v === null ? undefined : !isGoFalse(v);
}
