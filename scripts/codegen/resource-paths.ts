/**
 * Derives the served resources from the OpenAPI paths: which collection/item/subresource paths
 * exist, what `x-kubernetes-action` each operation has, and which kind it carries.
 */
import { CodegenError } from "./errors.js";
import type { OpenApiPath } from "./openapi.js";
import { compareStrings, isObject, readGvks } from "./shape.js";

export interface PathSubresource {
  readonly name: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly verbs: readonly string[];
}

export interface PathResource {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly listKind: string | undefined;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly subresources: readonly PathSubresource[];
}

const methods = ["get", "put", "post", "patch", "delete", "head", "options"] as const;

/** Discovery order of verbs, as kube-apiserver lists them. */
export const verbOrder = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

interface Accumulator {
  group: string;
  version: string;
  plural: string;
  namespaced: boolean;
  kinds: Set<string>;
  listKind: string | undefined;
  verbs: Set<string>;
  subresources: Map<string, { kinds: Set<string>; verbs: Set<string> }>;
}

export function resourcesFromPaths(paths: readonly OpenApiPath[]): PathResource[] {
  const resources = new Map<string, Accumulator>();
  for (const { path, item } of paths) {
    const parsed = parsePath(path);
    if (!parsed) continue;
    const key = `${parsed.group}/${parsed.version}/${parsed.plural}`;
    const acc: Accumulator = resources.get(key) ?? {
      group: parsed.group,
      version: parsed.version,
      plural: parsed.plural,
      namespaced: false,
      kinds: new Set(),
      listKind: undefined,
      verbs: new Set(),
      subresources: new Map(),
    };
    resources.set(key, acc);
    if (parsed.namespaced) acc.namespaced = true;
    for (const method of methods) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const verb = verbOf(operation["x-kubernetes-action"], method, path);
      const kind = kindOf(operation, path);
      if (parsed.subresource === undefined) {
        if (verb) acc.verbs.add(verb);
        if (kind && kind.group === parsed.group && kind.version === parsed.version) acc.kinds.add(kind.kind);
        if (operation["x-kubernetes-action"] === "list") acc.listKind ??= listKindOf(operation);
      } else {
        const sub = acc.subresources.get(parsed.subresource) ?? {
          kinds: new Set<string>(),
          verbs: new Set<string>(),
        };
        acc.subresources.set(parsed.subresource, sub);
        if (verb) sub.verbs.add(verb);
        if (kind) sub.kinds.add(`${kind.group}/${kind.version}/${kind.kind}`);
      }
    }
  }
  return [...resources.values()].map(finish).sort((a, b) => compareStrings(key(a), key(b)));
}

function key(r: PathResource): string {
  return `${r.group}/${r.version}/${r.plural}`;
}

function finish(acc: Accumulator): PathResource {
  const where = `${acc.group}/${acc.version} ${acc.plural}`;
  if (acc.kinds.size !== 1) {
    throw new CodegenError(
      "ERR_RESOURCE_PATHS",
      `${where}: expected one kind, found [${[...acc.kinds].join(", ")}]`,
    );
  }
  const subresources = [...acc.subresources.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([name, sub]): PathSubresource => {
      if (sub.kinds.size !== 1) {
        throw new CodegenError(
          "ERR_RESOURCE_PATHS",
          `${where}/${name}: expected one kind, found ${sub.kinds.size}`,
        );
      }
      const [group, version, kind] = ([...sub.kinds][0] as string).split("/") as [string, string, string];
      return { name, group, version, kind, verbs: sortVerbs(sub.verbs) };
    });
  return {
    group: acc.group,
    version: acc.version,
    plural: acc.plural,
    kind: [...acc.kinds][0] as string,
    listKind: acc.listKind,
    namespaced: acc.namespaced,
    verbs: sortVerbs(acc.verbs),
    subresources,
  };
}

function sortVerbs(verbs: Set<string>): string[] {
  return [...verbs].sort((a, b) => rank(a) - rank(b) || compareStrings(a, b));
}

function rank(verb: string): number {
  const index = verbOrder.indexOf(verb);
  return index === -1 ? verbOrder.length : index;
}

interface ParsedPath {
  group: string;
  version: string;
  namespaced: boolean;
  plural: string;
  subresource: string | undefined;
}

/** `/api/v1/...` or `/apis/<group>/<version>/...`; undefined for discovery and non-resource paths. */
export function parsePath(path: string): ParsedPath | undefined {
  const segments = path.split("/").filter((s) => s !== "");
  let group: string;
  let rest: string[];
  let version: string;
  if (segments[0] === "api" && segments.length >= 3) {
    group = "";
    version = segments[1] as string;
    rest = segments.slice(2);
  } else if (segments[0] === "apis" && segments.length >= 4) {
    group = segments[1] as string;
    version = segments[2] as string;
    rest = segments.slice(3);
  } else {
    return undefined;
  }
  if (rest[0] === "watch") rest = rest.slice(1);
  let namespaced = false;
  if (rest[0] === "namespaces" && rest[1] === "{namespace}" && rest.length >= 3) {
    namespaced = true;
    rest = rest.slice(2);
  }
  const plural = rest[0];
  if (plural === undefined || plural.startsWith("{")) return undefined;
  if (rest.length > 1 && rest[1] !== "{name}") {
    throw new CodegenError("ERR_RESOURCE_PATHS", `${path}: unexpected segment after ${plural}`);
  }
  return { group, version, namespaced, plural, subresource: rest[2] };
}

function verbOf(action: unknown, method: string, path: string): string | undefined {
  switch (action) {
    case "get":
    case "list":
    case "patch":
    case "delete":
    case "deletecollection":
      return action;
    case "watch":
    case "watchlist":
      return "watch";
    case "post":
      return "create";
    case "put":
      return "update";
    case "connect":
      // Connect subresources (exec, proxy, ...) answer several HTTP methods; discovery names them as verbs.
      return { get: "get", post: "create", put: "update", patch: "patch", delete: "delete" }[method];
    default:
      throw new CodegenError(
        "ERR_RESOURCE_PATHS",
        `${path} ${method}: unknown x-kubernetes-action ${String(action)}`,
      );
  }
}

function kindOf(operation: Record<string, unknown>, path: string) {
  const gvk = operation["x-kubernetes-group-version-kind"];
  if (gvk === undefined) return undefined;
  return readGvks({ "x-kubernetes-group-version-kind": [gvk] }, path)[0];
}

function listKindOf(operation: Record<string, unknown>): string | undefined {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const ok = isObject(responses["200"]) ? responses["200"] : {};
  const content = isObject(ok.content) ? ok.content : {};
  const json = isObject(content["application/json"]) ? content["application/json"] : {};
  const schema = isObject(json.schema) ? json.schema : {};
  const ref = typeof schema.$ref === "string" ? schema.$ref : undefined;
  return ref?.slice(ref.lastIndexOf(".") + 1);
}
