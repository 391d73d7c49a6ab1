/**
 * A binding's params, as upstream collects them: none when the policy has no paramKind or the
 * binding no paramRef; else the object named by paramRef.name, or every object matching
 * paramRef.selector, in paramRef.namespace or the request's namespace (namespaced param kinds),
 * read from the store. None found is allowed, or an error under parameterNotFoundAction Deny.
 * Param kinds are resolved among built-in kinds and the custom resources defined in the store.
 */
import { builtinResources, parseApiVersion } from "@kubesdk/models";
import type { AdmissionContext } from "../context.js";
import { isObj, type Obj } from "./json.js";
import { selectorMatches } from "./matching.js";

export interface ParamResource {
  readonly bucket: string;
  readonly namespaced: boolean;
  readonly apiVersion: string;
  readonly kind: string;
}

export type ParamsResult =
  | { readonly ok: true; readonly params: readonly unknown[] }
  | { readonly ok: false; readonly error: string };

const CRDS = "apiextensions.k8s.io/customresourcedefinitions";

/** The stored resource of a paramKind; undefined when no served kind has that name. */
export function resolveParamKind(paramKind: Obj, ctx: AdmissionContext): ParamResource | undefined {
  const apiVersion = String(paramKind.apiVersion ?? "");
  const kind = String(paramKind.kind ?? "");
  const { group, version } = parseApiVersion(apiVersion);
  const builtin = builtinResources.find((r) => r.group === group && r.version === version && r.kind === kind);
  if (builtin)
    return { bucket: `${group}/${builtin.plural}`, namespaced: builtin.namespaced, apiVersion, kind };
  for (const crd of ctx.store.list(CRDS).items) {
    const spec = isObj(crd.spec) ? crd.spec : {};
    const names = isObj(spec.names) ? spec.names : {};
    if (spec.group !== group || names.kind !== kind) continue;
    const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObj) : [];
    if (!versions.some((v) => v.name === version && v.served === true)) continue;
    return {
      bucket: `${group}/${String(names.plural)}`,
      namespaced: spec.scope === "Namespaced",
      apiVersion,
      kind,
    };
  }
  return undefined;
}

/** Upstream's spelling of a GroupVersionKind in messages: `group/version, Kind=Kind`. */
export function gvkText(paramKind: Obj): string {
  const { group, version } = parseApiVersion(String(paramKind.apiVersion ?? ""));
  return `${group}/${version}, Kind=${String(paramKind.kind ?? "")}`;
}

function labelsOf(o: Obj): Record<string, string> {
  const meta = isObj(o.metadata) ? o.metadata : {};
  return isObj(meta.labels) ? (meta.labels as Record<string, string>) : {};
}

/** The params a binding evaluates its policy with (`[null]`: once, without params). */
export function collectParams(
  resource: ParamResource | undefined,
  paramRef: unknown,
  requestNamespace: string,
  ctx: AdmissionContext,
): ParamsResult {
  if (!resource || !isObj(paramRef)) return { ok: true, params: [null] };
  let prefix = "";
  if (resource.namespaced) {
    const ns =
      typeof paramRef.namespace === "string" && paramRef.namespace !== ""
        ? paramRef.namespace
        : requestNamespace;
    if (ns === "")
      return {
        ok: false,
        error: "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources",
      };
    prefix = `${ns}/`;
  } else if (typeof paramRef.namespace === "string" && paramRef.namespace !== "") {
    return { ok: false, error: "paramRef.namespace must not be provided for a cluster-scoped `paramKind`" };
  }
  let found: Obj[];
  if (typeof paramRef.name === "string" && paramRef.name !== "") {
    const one = ctx.store.get(resource.bucket, `${prefix}${paramRef.name}`);
    found = one ? [one] : [];
  } else if (isObj(paramRef.selector)) {
    const selector = paramRef.selector;
    found = ctx.store
      .list(resource.bucket, { prefix })
      .items.filter((o) => selectorMatches(selector, labelsOf(o)));
  } else {
    return { ok: false, error: "one of name or selector must be provided" };
  }
  if (found.length === 0 && paramRef.parameterNotFoundAction === "Deny")
    return { ok: false, error: "no params found for policy binding with `Deny` parameterNotFoundAction" };
  // Expressions see the param with the paramKind's apiVersion and kind, whatever version stored it.
  return {
    ok: true,
    params: found.map((p) => ({ ...p, apiVersion: resource.apiVersion, kind: resource.kind })),
  };
}
