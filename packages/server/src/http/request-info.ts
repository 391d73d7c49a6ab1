/**
 * Parses a request path into what it addresses, like the apiserver's
 * RequestInfoFactory: API prefix, group/version, namespace, resource, name,
 * subresource, and the verb implied by method and query.
 */
import { queryBool } from "../api/query-bool.js";

export type Verb = "get" | "list" | "watch" | "create" | "update" | "patch" | "delete" | "deletecollection";

export interface ResourceRequestInfo {
  readonly type: "resource";
  readonly group: string;
  readonly version: string;
  readonly namespace: string | undefined;
  readonly resource: string;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
  readonly verb: Verb;
}

export interface OtherRequestInfo {
  readonly type: "other";
  readonly path: string;
  /** Present for /api, /apis, /apis/<g>, /api/v1, /apis/<g>/<v>. */
  readonly discovery?: { readonly group?: string; readonly version?: string; readonly legacy: boolean };
}

export type RequestInfo = ResourceRequestInfo | OtherRequestInfo;

/** Subresources of a namespace that are addressed as /namespaces/<name>/<sub>. */
const NAMESPACE_SUBRESOURCES = new Set(["status", "finalize"]);

/**
 * `segments` are the decoded path segments (undefined for a path with empty segments, which
 * addresses nothing and is answered like any unknown path).
 */
export function parseRequestInfo(
  method: string,
  pathname: string,
  segments: readonly string[] | undefined,
  query: URLSearchParams,
): RequestInfo {
  if (segments === undefined) return { type: "other", path: pathname };
  const parts = segments;
  let rest: readonly string[];
  let group: string;
  let version: string;
  if (parts[0] === "api") {
    if (parts.length === 1) return { type: "other", path: pathname, discovery: { legacy: true } };
    group = "";
    version = parts[1] as string;
    if (parts.length === 2) return { type: "other", path: pathname, discovery: { legacy: true, version } };
    rest = parts.slice(2);
  } else if (parts[0] === "apis") {
    if (parts.length === 1) return { type: "other", path: pathname, discovery: { legacy: false } };
    group = parts[1] as string;
    if (parts.length === 2) return { type: "other", path: pathname, discovery: { legacy: false, group } };
    version = parts[2] as string;
    if (parts.length === 3)
      return { type: "other", path: pathname, discovery: { legacy: false, group, version } };
    rest = parts.slice(3);
  } else {
    return { type: "other", path: pathname };
  }
  let watchPrefix = false;
  if (rest[0] === "watch") {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (rest[0] === "namespaces" && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2] as string)) rest = rest.slice(2);
    else namespace = undefined;
  }
  const [resource, name, subresource] = rest;
  if (resource === undefined || rest.length > 3) return { type: "other", path: pathname };
  // For /namespaces/<name>, the namespace being addressed is the object, not a scope.
  const watch = watchPrefix || queryBool(query, "watch");
  const verb = verbFor(method, name !== undefined, watch);
  return { type: "resource", group, version, namespace, resource, name, subresource, verb };
}

function verbFor(method: string, named: boolean, watch: boolean): Verb {
  switch (method) {
    case "POST":
      return "create";
    case "PUT":
      return "update";
    case "PATCH":
      return "patch";
    case "DELETE":
      return named ? "delete" : "deletecollection";
    default:
      if (watch) return "watch";
      return named ? "get" : "list";
  }
}
