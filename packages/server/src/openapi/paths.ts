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

/** Path items of one resource, keyed by path. */
export function resourcePaths(
  r: ServedResource,
  names: PathNames,
  scaleName: string,
): Record<string, unknown> {
  const root = r.group === "" ? `/api/${r.version}` : `/apis/${apiVersionOf(r)}`;
  const scoped = r.namespaced ? `${root}/namespaces/{namespace}/${r.resource}` : `${root}/${r.resource}`;
  const scopeParams = r.namespaced ? [path("namespace")] : [];
  const id = `${camel(r.group || "core")}${camel(r.version)}${r.namespaced ? "Namespaced" : ""}${r.kind}`;
  const op = (action: string, verb: string, extra: Operation, subKind = gvk(r)): Operation => ({
    operationId: `${verb}${id}`,
    ...extra,
    "x-kubernetes-action": action,
    "x-kubernetes-group-version-kind": subKind,
  });
  const ok = (ref: string): Record<string, unknown> => ({ "200": { content: content(ref) } });
  const body = (ref: string) => ({ content: content(ref, ["*/*"]), required: true });
  // Custom resources take no strategic merge patches.
  const patchTypes = r.custom
    ? PATCH_TYPES.filter((t) => !t.startsWith("application/strategic"))
    : PATCH_TYPES;
  const patchBody = () => ({
    content: Object.fromEntries(patchTypes.map((t) => [t, { schema: { $ref: refTo(`${META}.Patch`) } }])),
    required: true,
  });
  const out: Record<string, unknown> = {};

  const list: Record<string, unknown> = { parameters: [...scopeParams, query("pretty")] };
  if (r.verbs.has("list"))
    list.get = op("list", "list", { parameters: LIST_PARAMS, responses: ok(names.list) });
  if (r.verbs.has("create"))
    list.post = op("post", "create", {
      parameters: WRITE_PARAMS,
      requestBody: body(names.kind),
      responses: ok(names.kind),
    });
  if (r.verbs.has("deletecollection"))
    list.delete = op("deletecollection", "deleteCollection", {
      parameters: [...LIST_PARAMS, query("dryRun"), query("propagationPolicy")],
      responses: ok(`${META}.Status`),
    });
  out[scoped] = list;
  if (r.namespaced && r.verbs.has("list"))
    out[`${root}/${r.resource}`] = {
      get: {
        ...op("list", "list", { parameters: LIST_PARAMS, responses: ok(names.list) }),
        operationId: `list${id}ForAllNamespaces`,
      },
      parameters: [query("pretty")],
    };

  const item: Record<string, unknown> = { parameters: [path("name"), ...scopeParams, query("pretty")] };
  if (r.verbs.has("get")) item.get = op("get", "read", { responses: ok(names.kind) });
  if (r.verbs.has("update"))
    item.put = op("put", "replace", {
      parameters: WRITE_PARAMS,
      requestBody: body(names.kind),
      responses: ok(names.kind),
    });
  if (r.verbs.has("patch"))
    item.patch = op("patch", "patch", {
      parameters: [...WRITE_PARAMS, query("force", "boolean")],
      requestBody: patchBody(),
      responses: ok(names.kind),
    });
  if (r.verbs.has("delete"))
    item.delete = op("delete", "delete", {
      parameters: [query("dryRun"), query("gracePeriodSeconds", "integer"), query("propagationPolicy")],
      responses: ok(`${META}.Status`),
    });
  out[`${scoped}/{name}`] = item;

  for (const sub of r.subresources.values()) {
    const ref = sub.name === "scale" ? scaleName : names.kind;
    const subGvk = sub.name === "scale" ? gvk(r, "Scale", "autoscaling", "v1") : gvk(r);
    const suffix = camel(sub.name);
    const subOp = (action: string, verb: string, extra: Operation) => ({
      ...op(action, verb, extra, subGvk),
      operationId: `${verb}${id}${suffix}`,
    });
    const entry: Record<string, unknown> = { parameters: [path("name"), ...scopeParams, query("pretty")] };
    if (sub.verbs.includes("get")) entry.get = subOp("get", "read", { responses: ok(ref) });
    if (sub.verbs.includes("update"))
      entry.put = subOp("put", "replace", {
        parameters: WRITE_PARAMS,
        requestBody: body(ref),
        responses: ok(ref),
      });
    if (sub.verbs.includes("patch"))
      entry.patch = subOp("patch", "patch", {
        parameters: [...WRITE_PARAMS, query("force", "boolean")],
        requestBody: patchBody(),
        responses: ok(ref),
      });
    out[`${scoped}/{name}/${sub.name}`] = entry;
  }
  return out;
}

export const DOCUMENT_HEAD: OpenApiSchema = {
  openapi: "3.0.0",
  info: { title: "Kubernetes", version: "unversioned" },
};
