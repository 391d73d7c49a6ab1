/**
 * The published schemas of a custom resource kind and its list, in the layout kube-apiserver's CRD
 * OpenAPI builder uses: the version's openAPIV3Schema with apiVersion, kind and metadata added (with
 * descriptions, metadata a reference to ObjectMeta) and the group-version-kind, and the list kind
 * around it. OpenAPI v2 cannot say what v3 can, so its flavour drops the parts kubectl would
 * misread: a root that preserves unknown fields is published as a bare object, and inside, unknown
 * fields, nullable values and anyOf/allOf/oneOf/not lose the structure kubectl would validate
 * against. The descriptions added here are the server's own words.
 */
import type { ServedResource } from "../resources/served.js";
import type { OpenApiSchema } from "./components.js";

type Json = Record<string, unknown>;
export type Flavour = "v2" | "v3";

const META = "io.k8s.apimachinery.pkg.apis.meta.v1";
const isJson = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const API_VERSION = "APIVersion defines which version of its API the object is written in (group/version).";
const KIND = "Kind names the object's type, in CamelCase, as the API's discovery lists it.";
const METADATA = "Standard object's metadata: name, namespace, labels, annotations and what the server sets.";
const LIST_METADATA = "Standard list metadata: the list's resourceVersion and continue token.";

/** A reference to a meta type with a description: `$ref` beside it in v2, wrapped in allOf in v3. */
function metaRef(type: string, description: string, flavour: Flavour): Json {
  return flavour === "v2"
    ? { $ref: `#/definitions/${META}.${type}`, description }
    : { allOf: [{ $ref: `#/components/schemas/${META}.${type}` }], description };
}

const typeMeta = () => ({
  apiVersion: { description: API_VERSION, type: "string" },
  kind: { description: KIND, type: "string" },
});

const gvk = (r: ServedResource, kind: string) => [{ group: r.group, kind, version: r.version }];

/** Children of a schema node: properties, items and additionalProperties. */
function mapChildren(s: Json, f: (c: Json) => Json): Json {
  const out = { ...s };
  if (isJson(s.properties))
    out.properties = Object.fromEntries(
      Object.entries(s.properties).map(([k, v]) => [k, isJson(v) ? f(v) : v]),
    );
  if (isJson(s.items)) out.items = f(s.items);
  if (isJson(s.additionalProperties)) out.additionalProperties = f(s.additionalProperties);
  return out;
}

/** What v2 keeps of a structural schema node (and, recursively, its children). */
function toV2(schema: Json): Json {
  const s = mapChildren(schema, toV2);
  for (const k of ["allOf", "anyOf", "oneOf", "not"]) delete s[k];
  if (s.nullable === true) {
    // kubectl would refuse null where a type is stated: the value is left untyped.
    for (const k of ["nullable", "type", "items", "properties"]) delete s[k];
  }
  if (s["x-kubernetes-preserve-unknown-fields"] === true)
    // kubectl would refuse fields that properties do not list.
    for (const k of ["type", "items", "properties"]) delete s[k];
  if (s.type === "array" && s.items === undefined) delete s.type;
  const declared = schema.properties;
  if (Array.isArray(s.required) && isJson(declared)) {
    // A nullable field may be sent as null, which v2 cannot state: it is not required there.
    const isNullable = (f: unknown) =>
      typeof f === "string" && isJson(declared[f]) && declared[f].nullable === true;
    const required = s.required.filter((f) => !isNullable(f));
    if (required.length > 0) s.required = required;
    else delete s.required;
  }
  return s;
}

/** v3 states what x-kubernetes-int-or-string allows; embedded resources get their type and object meta. */
function withImplied(schema: Json, flavour: Flavour): Json {
  const s = mapChildren(schema, (c) => withImplied(c, flavour));
  if (flavour === "v3" && s["x-kubernetes-int-or-string"] === true && s.anyOf === undefined)
    s.anyOf = [{ type: "integer" }, { type: "string" }];
  const skip = flavour === "v2" && s["x-kubernetes-preserve-unknown-fields"] === true;
  if (s["x-kubernetes-embedded-resource"] === true && !skip) {
    s.properties = {
      ...(isJson(s.properties) ? s.properties : {}),
      ...typeMeta(),
      metadata: metaRef("ObjectMeta", METADATA, flavour),
    };
    s.required = [...(Array.isArray(s.required) ? s.required : []), "kind", "apiVersion"];
  }
  return s;
}

/** The kind's published schema. */
export function customKindSchema(r: ServedResource, flavour: Flavour): OpenApiSchema {
  const declared = (r.custom?.schema ?? {
    type: "object",
    "x-kubernetes-preserve-unknown-fields": true,
  }) as Json;
  const extension = { "x-kubernetes-group-version-kind": gvk(r, r.kind) };
  // kubectl validates v2 documents strictly: a root open to unknown fields is published bare.
  if (flavour === "v2" && declared["x-kubernetes-preserve-unknown-fields"] === true)
    return { type: "object", ...extension };
  const schema = withImplied(flavour === "v2" ? toV2(declared) : structuredClone(declared), flavour);
  return {
    ...schema,
    properties: {
      ...(isJson(schema.properties) ? schema.properties : {}),
      ...typeMeta(),
      metadata: metaRef("ObjectMeta", METADATA, flavour),
    },
    type: "object",
    ...extension,
  };
}

/** The list kind's published schema; `kindName` is the kind's definition name. */
export function customListSchema(r: ServedResource, kindName: string, flavour: Flavour): OpenApiSchema {
  const ref = flavour === "v2" ? `#/definitions/${kindName}` : `#/components/schemas/${kindName}`;
  return {
    description: `${r.listKind} is a list of ${r.kind}`,
    properties: {
      ...typeMeta(),
      items: { description: `List of ${r.resource}.`, items: { $ref: ref }, type: "array" },
      metadata: metaRef("ListMeta", LIST_METADATA, flavour),
    },
    required: ["items"],
    type: "object",
    "x-kubernetes-group-version-kind": gvk(r, r.listKind),
  };
}
