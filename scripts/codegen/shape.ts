/**
 * Normalises OpenAPI v3 component schemas into one small shape model that every emitter reads
 * (TypeScript types and merge metadata), so both agree on what a field is. Descriptions, enums and
 * validations are never copied; a field's `default` is kept for its generated doc comment.
 */
import { CodegenError } from "./errors.js";

export type ScalarType = "string" | "integer" | "number" | "boolean" | "int-or-string" | "number-or-string";
export type Marker = "int-or-string" | "quantity" | "time" | "micro-time" | "date" | "bytes";

export interface Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** Merge-relevant extensions; they may sit on a reference site as well as on the schema itself. */
export interface Attrs {
  listType?: "atomic" | "set" | "map";
  listMapKeys?: string[];
  patchStrategy?: string;
  patchMergeKey?: string;
  mapType?: "atomic" | "granular";
  preserveUnknownFields?: true;
  embeddedResource?: true;
}

export type Shape =
  | ({ kind: "ref"; target: string } & Attrs)
  | ({ kind: "scalar"; scalar: ScalarType; format?: string; marker?: Marker } & Attrs)
  | ({ kind: "struct"; fields: Field[]; required: string[]; gvks: Gvk[] } & Attrs)
  | ({ kind: "map"; values: Shape } & Attrs)
  | ({ kind: "list"; items: Shape } & Attrs)
  | ({ kind: "untyped"; object: boolean } & Attrs);

export interface Field {
  readonly name: string;
  readonly shape: Shape;
  /** The schema's `default` for this property, if it states one. */
  readonly default?: unknown;
  /** An `x-kubernetes-validations` rule `self == oldSelf` on the property: it cannot change once set. */
  readonly immutable?: true;
}

type Json = Record<string, unknown>;

const refPrefix = "#/components/schemas/";
const quantityName = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const microTimeName = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime";

/**
 * `where` is the component name for a top-level schema (Quantity and MicroTime are recognised by
 * it, since their schemas alone do not say what they are) and a path inside it for nested ones;
 * errors name it.
 */
export function toShape(schema: unknown, where: string): Shape {
  if (!isObject(schema)) {
    throw new CodegenError("ERR_OPENAPI_SHAPE", `${where}: schema is not an object`);
  }
  const attrs = readAttrs(schema, where);
  const ref = refOf(schema, where);
  if (ref !== undefined) return { kind: "ref", target: ref, ...attrs };

  const type = schema.type;
  const format = typeof schema.format === "string" && schema.format !== "" ? schema.format : undefined;
  if (format === "int-or-string" || schema["x-kubernetes-int-or-string"] === true) {
    return { kind: "scalar", scalar: "int-or-string", marker: "int-or-string", ...attrs };
  }
  if (where === quantityName) {
    return { kind: "scalar", scalar: "number-or-string", marker: "quantity", ...attrs };
  }
  if (schema.oneOf !== undefined || schema.anyOf !== undefined) {
    throw new CodegenError("ERR_OPENAPI_SHAPE", `${where}: unsupported oneOf/anyOf`);
  }
  switch (type) {
    case "string":
    case "integer":
    case "number":
    case "boolean": {
      const marker = markerFor(type, format, where);
      return {
        kind: "scalar",
        scalar: type,
        ...(format ? { format } : {}),
        ...(marker ? { marker } : {}),
        ...attrs,
      };
    }
    case "array":
      return {
        kind: "list",
        items: schema.items === undefined ? untyped(false) : toShape(schema.items, `${where}[]`),
        ...attrs,
      };
    case "object":
    case undefined:
      return objectShape(schema, type === "object", attrs, where);
    default:
      throw new CodegenError("ERR_OPENAPI_SHAPE", `${where}: unsupported type ${JSON.stringify(type)}`);
  }
}

function objectShape(schema: Json, typedObject: boolean, attrs: Attrs, where: string): Shape {
  const properties = schema.properties;
  const additional = schema.additionalProperties;
  if (isObject(properties) && Object.keys(properties).length > 0) {
    if (additional !== undefined && additional !== false) {
      throw new CodegenError("ERR_OPENAPI_SHAPE", `${where}: both properties and additionalProperties`);
    }
    const fields = Object.entries(properties).map(([name, value]) => ({
      name,
      shape: toShape(value, `${where}.${name}`),
      ...(isObject(value) && value.default !== undefined ? { default: value.default } : {}),
      ...(isObject(value) && isImmutable(value) ? { immutable: true as const } : {}),
    }));
    const required = Array.isArray(schema.required) ? schema.required.filter(isString) : [];
    return { kind: "struct", fields, required, gvks: readGvks(schema, where), ...attrs };
  }
  if (isObject(additional)) {
    return { kind: "map", values: toShape(additional, `${where}{}`), ...attrs };
  }
  if (additional === true) return { kind: "map", values: untyped(false), ...attrs };
  // `type: object` without properties: an arbitrary JSON object (RawExtension, FieldsV1, Patch...).
  return { ...untyped(typedObject), ...attrs };
}

function isImmutable(schema: Json): boolean {
  const rules = schema["x-kubernetes-validations"];
  return (
    Array.isArray(rules) &&
    rules.some(
      (r) => isObject(r) && typeof r.rule === "string" && r.rule.replace(/\s/g, "") === "self==oldSelf",
    )
  );
}

function untyped(object: boolean): Shape {
  return { kind: "untyped", object };
}

function markerFor(type: string, format: string | undefined, where: string): Marker | undefined {
  if (type !== "string") return undefined;
  if (format === "date-time") return where === microTimeName ? "micro-time" : "time";
  if (format === "date") return "date";
  if (format === "byte") return "bytes";
  return undefined;
}

function refOf(schema: Json, where: string): string | undefined {
  let ref = schema.$ref;
  if (ref === undefined && Array.isArray(schema.allOf)) {
    if (schema.allOf.length !== 1 || !isObject(schema.allOf[0])) {
      throw new CodegenError("ERR_OPENAPI_SHAPE", `${where}: allOf must hold exactly one $ref`);
    }
    ref = schema.allOf[0].$ref;
  }
  if (ref === undefined) return undefined;
  if (typeof ref !== "string" || !ref.startsWith(refPrefix)) {
    throw new CodegenError("ERR_OPENAPI_SHAPE", `${where}: unsupported $ref ${JSON.stringify(ref)}`);
  }
  return ref.slice(refPrefix.length);
}

function readAttrs(schema: Json, where: string): Attrs {
  const attrs: Attrs = {};
  const listType = schema["x-kubernetes-list-type"];
  if (listType !== undefined) {
    if (listType !== "atomic" && listType !== "set" && listType !== "map") {
      throw new CodegenError("ERR_OPENAPI_SHAPE", `${where}: bad x-kubernetes-list-type ${String(listType)}`);
    }
    attrs.listType = listType;
  }
  const keys = schema["x-kubernetes-list-map-keys"];
  if (keys !== undefined) {
    if (!Array.isArray(keys) || !keys.every(isString)) {
      throw new CodegenError("ERR_OPENAPI_SHAPE", `${where}: bad x-kubernetes-list-map-keys`);
    }
    attrs.listMapKeys = keys;
  }
  const strategy = schema["x-kubernetes-patch-strategy"];
  if (typeof strategy === "string") attrs.patchStrategy = strategy;
  const mergeKey = schema["x-kubernetes-patch-merge-key"];
  if (typeof mergeKey === "string") attrs.patchMergeKey = mergeKey;
  const mapType = schema["x-kubernetes-map-type"];
  if (mapType !== undefined) {
    if (mapType !== "atomic" && mapType !== "granular") {
      throw new CodegenError("ERR_OPENAPI_SHAPE", `${where}: bad x-kubernetes-map-type ${String(mapType)}`);
    }
    attrs.mapType = mapType;
  }
  if (schema["x-kubernetes-preserve-unknown-fields"] === true) attrs.preserveUnknownFields = true;
  if (schema["x-kubernetes-embedded-resource"] === true) attrs.embeddedResource = true;
  return attrs;
}

export function readGvks(schema: Json, where: string): Gvk[] {
  const raw = schema["x-kubernetes-group-version-kind"];
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    throw new CodegenError("ERR_OPENAPI_SHAPE", `${where}: x-kubernetes-group-version-kind is not a list`);
  }
  return raw.map((entry) => {
    if (!isObject(entry) || !isString(entry.group) || !isString(entry.version) || !isString(entry.kind)) {
      throw new CodegenError("ERR_OPENAPI_SHAPE", `${where}: bad x-kubernetes-group-version-kind entry`);
    }
    return { group: entry.group, version: entry.version, kind: entry.kind };
  });
}

export function compareGvk(a: Gvk, b: Gvk): number {
  return (
    compareStrings(a.group, b.group) || compareStrings(a.version, b.version) || compareStrings(a.kind, b.kind)
  );
}

/** Code-unit order, independent of locale, so output is byte-stable everywhere. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}
