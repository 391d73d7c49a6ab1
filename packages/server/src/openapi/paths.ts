/**
 * OpenAPI v3 path items for the resources of one group/version: list and
 * item paths with one operation per verb, each marked with
 * x-kubernetes-action and x-kubernetes-group-version-kind (what kubectl
 * explain and kubectl's fieldValidation support check look for), and the
 * write parameters (dryRun, fieldManager, fieldValidation, force).
 */
import { apiVersionOf, type ServedResource } from "../resources/served.js";
import { type OpenApiSchema, refTo } from "./components.js";

type Operation = Record<string, unknown>;

const query = (name: string, type = "string") => ({ in: "query", name, schema: { type, uniqueItems: true } });
const path = (name: string) => ({
  in: "path",
  name,
  required: true,
  schema: { type: "string", uniqueItems: true },
});

const WRITE_PARAMS = [query("dryRun"), query("fieldManager"), query("fieldValidation")];
const LIST_PARAMS = [
  query("allowWatchBookmarks", "boolean"),
  query("continue"),
  query("fieldSelector"),
  query("labelSelector"),
  query("limit", "integer"),
  query("resourceVersion"),
  query("resourceVersionMatch"),
  query("sendInitialEvents", "boolean"),
  query("timeoutSeconds", "integer"),
  query("watch", "boolean"),
];
const MEDIA = ["application/json", "application/yaml"];
const META = "io.k8s.apimachinery.pkg.apis.meta.v1";
const PATCH_TYPES = [
  "application/apply-patch+yaml",
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
];

function content(schemaRef: string, types: readonly string[] = MEDIA): Record<string, unknown> {
  return Object.fromEntries(types.map((t) => [t, { schema: { $ref: refTo(schemaRef) } }]));
}

function camel(s: string): string {
  return s
    .split(/[^A-Za-z0-9]/)
    .filter(Boolean)
    .map((p) => p[0]?.toUpperCase() + p.slice(1))
    .join("");
}

export interface PathNames {
  /** Component name of the kind, e.g. io.k8s.api.apps.v1.Deployment. */
  readonly kind: string;
  readonly list: string;
}

function gvk(r: ServedResource, kind = r.kind, group = r.group, version = r.version) {
  return { group, kind, version };
}

type MakeOperation = (action: string, verb: string, extra: Operation) => Operation;

const ok = (ref: string): Record<string, unknown> => ({ "200": { content: content(ref) } });
const body = (ref: string) => ({ content: content(ref, ["*/*"]), required: true });

/** What the paths of one resource share. */
interface ResourcePathContext {
  readonly r: ServedResource;
  readonly names: PathNames;
  readonly root: string;
  readonly scoped: string;
  readonly scopeParams: readonly unknown[];
  readonly id: string;
  readonly patchBody: Record<string, unknown>;
}

function pathContext(r: ServedResource, names: PathNames): ResourcePathContext {
  const root = r.group === "" ? `/api/${r.version}` : `/apis/${apiVersionOf(r)}`;
  // Custom resources take no strategic merge patches.
  const patchTypes = r.custom
    ? PATCH_TYPES.filter((t) => !t.startsWith("application/strategic"))
    : PATCH_TYPES;
  return {
    r,
    names,
    root,
    scoped: r.namespaced ? `${root}/namespaces/{namespace}/${r.resource}` : `${root}/${r.resource}`,
    scopeParams: r.namespaced ? [path("namespace")] : [],
    id: `${camel(r.group || "core")}${camel(r.version)}${r.namespaced ? "Namespaced" : ""}${r.kind}`,
    patchBody: {
      content: Object.fromEntries(patchTypes.map((t) => [t, { schema: { $ref: refTo(`${META}.Patch`) } }])),
      required: true,
    },
  };
}

function operationMaker(c: ResourcePathContext, subKind = gvk(c.r), suffix = ""): MakeOperation {
  return (action, verb, extra) => ({
    operationId: `${verb}${c.id}${suffix}`,
    ...extra,
    "x-kubernetes-action": action,
    "x-kubernetes-group-version-kind": subKind,
  });
}

/** GET, PUT and PATCH of one object (or one of its subresources), as far as `has` allows. */
function objectOperations(
  c: ResourcePathContext,
  has: (verb: string) => boolean,
  make: MakeOperation,
  ref: string,
): Record<string, unknown> {
  const entry: Record<string, unknown> = { parameters: [path("name"), ...c.scopeParams, query("pretty")] };
  if (has("get")) entry.get = make("get", "read", { responses: ok(ref) });
  if (has("update"))
    entry.put = make("put", "replace", {
      parameters: WRITE_PARAMS,
      requestBody: body(ref),
      responses: ok(ref),
    });
  if (has("patch"))
    entry.patch = make("patch", "patch", {
      parameters: [...WRITE_PARAMS, query("force", "boolean")],
      requestBody: c.patchBody,
      responses: ok(ref),
    });
  return entry;
}

function collectionOperations(c: ResourcePathContext, make: MakeOperation): Record<string, unknown> {
  const { r, names } = c;
  const list: Record<string, unknown> = { parameters: [...c.scopeParams, query("pretty")] };
  if (r.verbs.has("list"))
    list.get = make("list", "list", { parameters: LIST_PARAMS, responses: ok(names.list) });
  if (r.verbs.has("create"))
    list.post = make("post", "create", {
      parameters: WRITE_PARAMS,
      requestBody: body(names.kind),
      responses: ok(names.kind),
    });
  if (r.verbs.has("deletecollection"))
    list.delete = make("deletecollection", "deleteCollection", {
      parameters: [...LIST_PARAMS, query("dryRun"), query("propagationPolicy")],
      responses: ok(`${META}.Status`),
    });
  return list;
}

/** Path items of one resource, keyed by path. */
export function resourcePaths(
  r: ServedResource,
  names: PathNames,
  scaleName: string,
): Record<string, unknown> {
  const c = pathContext(r, names);
  const make = operationMaker(c);
  const out: Record<string, unknown> = { [c.scoped]: collectionOperations(c, make) };
  if (r.namespaced && r.verbs.has("list"))
    out[`${c.root}/${r.resource}`] = {
      get: {
        ...make("list", "list", { parameters: LIST_PARAMS, responses: ok(names.list) }),
        operationId: `list${c.id}ForAllNamespaces`,
      },
      parameters: [query("pretty")],
    };
  const item = objectOperations(c, (v) => r.verbs.has(v as never), make, names.kind);
  if (r.verbs.has("delete"))
    item.delete = make("delete", "delete", {
      parameters: [query("dryRun"), query("gracePeriodSeconds", "integer"), query("propagationPolicy")],
      responses: ok(`${META}.Status`),
    });
  out[`${c.scoped}/{name}`] = item;
  for (const sub of r.subresources.values()) {
    const scale = sub.name === "scale";
    const subMake = operationMaker(c, scale ? gvk(r, "Scale", "autoscaling", "v1") : gvk(r), camel(sub.name));
    const has = (v: string) => (sub.verbs as readonly string[]).includes(v);
    out[`${c.scoped}/{name}/${sub.name}`] = objectOperations(c, has, subMake, scale ? scaleName : names.kind);
  }
  return out;
}

export const DOCUMENT_HEAD: OpenApiSchema = {
  openapi: "3.0.0",
  info: { title: "Kubernetes", version: "unversioned" },
};
