/**
 * Static checks of a CRD version's openAPIV3Schema, as the apiserver runs
 * them when a CRD is written: the schema must be structural (a type at every
 * level, items for arrays, no additionalProperties at the root, metadata
 * restricted to name/generateName, nothing but value validations inside
 * allOf/anyOf/oneOf/not), use only supported OpenAPI keywords, and carry
 * defaults that validate and survive pruning. Field paths and messages
 * follow apiextensions-apiserver so clients see the same 422 causes.
 */
import type { FieldError } from "../api/status.js";
import {
  additionalPropertiesOf,
  asSchema,
  isEmbeddedResource,
  isIntOrString,
  isObject,
  itemsOf,
  type JsonSchema,
  preservesUnknown,
  propertiesOf,
} from "./json-schema.js";
import { pruneCustomResource } from "./prune.js";
import { compileSchema, SchemaCompileError } from "./validator.js";

const OPENAPI_TYPES = ["array", "boolean", "integer", "number", "object", "string"];
const META_FIELDS = new Set(["apiVersion", "kind", "metadata"]);
/** JSON names of the keywords allowed at the root when the status subresource is on. */
const ROOT_KEYWORDS_WITH_STATUS = new Set([
  "description",
  "type",
  "format",
  "title",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "multipleOf",
  "required",
  "items",
  "properties",
  "externalDocs",
  "example",
  "x-kubernetes-preserve-unknown-fields",
  "x-kubernetes-validations",
]);
const ROOT_KEYWORDS_GO_NAMES =
  "[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]";

type Level = "root" | "field" | "item";

const key = (parent: string, k: string) => `${parent}.properties[${k}]`;
const err = (type: FieldError["type"], field: string, detail: string, value?: unknown): FieldError =>
  value === undefined ? { type, field, detail } : { type, field, detail, value };

/**
 * Checks one version's `schema` (the CustomResourceValidation) found at `path`
 * (`spec.validation` when all versions share it, else `spec.versions[i].schema`).
 */
export function checkVersionSchema(validation: unknown, path: string, statusEnabled: boolean): FieldError[] {
  const schema = asSchema(asSchema(validation)?.openAPIV3Schema);
  if (!schema) return [];
  const base = `${path}.openAPIV3Schema`;
  const errs: FieldError[] = [];
  if (statusEnabled) {
    if (schema.type !== undefined && schema.type !== "object")
      errs.push(
        err(
          "FieldValueInvalid",
          `${base}.type`,
          'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
          schema.type,
        ),
      );
    else if (Object.keys(schema).some((k) => !ROOT_KEYWORDS_WITH_STATUS.has(k)))
      errs.push(
        err(
          "FieldValueInvalid",
          base,
          `only ${ROOT_KEYWORDS_GO_NAMES} fields are allowed at the root of the schema if the status subresource is enabled`,
          schema,
        ),
      );
  }
  if (schema.nullable === true)
    errs.push(err("FieldValueForbidden", `${base}.nullable`, "nullable cannot be true at the root"));
  const structural = structuralErrors(schema, "root", base);
  errs.push(...structural);
  if (structural.length === 0) errs.push(...defaultErrors(schema, base, true));
  errs.push(...openAPIErrors(schema, base, true, false));
  if (errs.length === 0) {
    try {
      compileSchema(schema);
    } catch (e) {
      if (!(e instanceof SchemaCompileError)) throw e;
      errs.push(err("FieldValueInvalid", path, `error building validator: ${e.message}`, ""));
    }
  }
  return errs;
}

/** Structural invariants, sorted by their rendered text as upstream sorts them. */
function structuralErrors(s: JsonSchema, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  invariants(s, level, path, errs);
  const text = (e: FieldError) => `${e.field}: ${e.type} ${e.detail}`;
  return errs.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}

function invariants(s: JsonSchema, level: Level, path: string, errs: FieldError[]): void {
  const type = typeof s.type === "string" ? s.type : "";
  const items = itemsOf(s);
  if (type === "array" && !items) errs.push(err("FieldValueRequired", `${path}.items`, "must be specified"));
  if (items) invariants(items, "item", `${path}.items`, errs);
  const props = propertiesOf(s);
  for (const k of Object.keys(props).sort()) invariants(props[k] as JsonSchema, "field", key(path, k), errs);
  const additional = asSchema(s.additionalProperties);
  if (s.additionalProperties !== undefined && level === "root")
    errs.push(err("FieldValueForbidden", `${path}.additionalProperties`, "must not be used at the root"));
  if (additional) invariants(additional, "field", `${path}.additionalProperties`, errs);

  valueValidationErrors(s, path, errs);

  const embedded = isEmbeddedResource(s);
  if (embedded && type !== "object") {
    if (type === "")
      errs.push(
        err("FieldValueRequired", `${path}.type`, "must be object if x-kubernetes-embedded-resource is true"),
      );
    else
      errs.push(
        err(
          "FieldValueInvalid",
          `${path}.type`,
          "must be object if x-kubernetes-embedded-resource is true",
          type,
        ),
      );
  } else if (type === "" && !isIntOrString(s) && !preservesUnknown(s)) {
    const where =
      level === "root"
        ? "at the root"
        : level === "item"
          ? "for specified array items"
          : "for specified object fields";
    errs.push(err("FieldValueRequired", `${path}.type`, `must not be empty ${where}`));
  }
  if (level === "root" && type !== "" && type !== "object")
    errs.push(err("FieldValueInvalid", `${path}.type`, "must be object at the root", type));
  const checkMeta = level === "root" || embedded;
  if (checkMeta) {
    for (const k of ["kind", "apiVersion"]) {
      const p = props[k];
      if (p && p.type !== "string")
        errs.push(err("FieldValueInvalid", `${key(path, k)}.type`, "must be string", p.type ?? ""));
    }
  }
  const meta = props.metadata;
  if (meta) {
    if (checkMeta && meta.type !== "object")
      errs.push(err("FieldValueInvalid", `${key(path, "metadata")}.type`, "must be object", meta.type ?? ""));
    if (level === "root" && !onlyNameAndGenerateName(meta))
      errs.push(
        err(
          "FieldValueForbidden",
          key(path, "metadata"),
          "must not specify anything other than name and generateName, but metadata is implicitly specified",
        ),
      );
  }
  if (embedded && !preservesUnknown(s) && Object.keys(props).length === 0)
    errs.push(
      err(
        "FieldValueRequired",
        `${path}.properties`,
        "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
      ),
    );
}

function onlyNameAndGenerateName(meta: JsonSchema): boolean {
  for (const k of Object.keys(meta)) {
    if (k === "type" || k === "default") continue;
    if (k !== "properties") return false;
    const names = Object.keys(propertiesOf(meta));
    if (names.some((n) => n !== "name" && n !== "generateName")) return false;
  }
  return true;
}

/** Keywords that may not appear inside allOf/anyOf/oneOf/not (value validations only). */
const FORBIDDEN_IN_VALUE_VALIDATION: ReadonlyArray<[string, string]> = [
  ["type", "must be empty to be structural"],
  ["additionalProperties", "must be undefined to be structural"],
  ["default", "must be undefined to be structural"],
  ["title", "must be empty to be structural"],
  ["description", "must be empty to be structural"],
  ["nullable", "must be false to be structural"],
  ["x-kubernetes-preserve-unknown-fields", "must be false to be structural"],
  ["x-kubernetes-embedded-resource", "must be false to be structural"],
  ["x-kubernetes-int-or-string", "must be false to be structural"],
  ["x-kubernetes-list-map-keys", "must be empty to be structural"],
  ["x-kubernetes-list-type", "must be undefined to be structural"],
  ["x-kubernetes-map-type", "must be undefined to be structural"],
  ["x-kubernetes-validations", "must be empty to be structural"],
];

const isIntOrStringPair = (list: unknown): boolean =>
  Array.isArray(list) &&
  list.length === 2 &&
  JSON.stringify(list[0]) === '{"type":"integer"}' &&
  JSON.stringify(list[1]) === '{"type":"string"}';

function valueValidationErrors(s: JsonSchema, path: string, errs: FieldError[]): void {
  const skipAnyOf = isIntOrStringPair(s.anyOf);
  const allOf = Array.isArray(s.allOf) ? s.allOf : [];
  const skipFirstAllOfAnyOf = allOf.length > 0 && isIntOrStringPair(asSchema(allOf[0])?.anyOf);
  for (const k of ["allOf", "anyOf", "oneOf"] as const) {
    const list = s[k];
    if (!Array.isArray(list) || (k === "anyOf" && skipAnyOf)) continue;
    list.forEach((x, i) => {
      const nested = asSchema(x);
      if (nested)
        nestedValueValidation(
          nested,
          `${path}.${k}[${i}]`,
          errs,
          k === "allOf" && i === 0 && skipFirstAllOfAnyOf,
        );
    });
  }
  const not = asSchema(s.not);
  if (not) nestedValueValidation(not, `${path}.not`, errs, false);
}

function nestedValueValidation(s: JsonSchema, path: string, errs: FieldError[], skipAnyOf: boolean): void {
  for (const [k, detail] of FORBIDDEN_IN_VALUE_VALIDATION) {
    const v = s[k];
    if (v === undefined || v === false || v === "" || (Array.isArray(v) && v.length === 0)) continue;
    errs.push(err("FieldValueForbidden", `${path}.${k}`, detail));
  }
  if (isObject(s.properties) && "metadata" in s.properties)
    errs.push(
      err("FieldValueForbidden", `${path}.properties[metadata]`, "must not be specified in a nested context"),
    );
  for (const k of ["allOf", "anyOf", "oneOf"] as const) {
    const list = s[k];
    if (!Array.isArray(list) || (k === "anyOf" && skipAnyOf)) continue;
    list.forEach((x, i) => {
      const nested = asSchema(x);
      if (nested) nestedValueValidation(nested, `${path}.${k}[${i}]`, errs, false);
    });
  }
  const props = propertiesOf(s);
  for (const k of Object.keys(props).sort())
    nestedValueValidation(props[k] as JsonSchema, key(path, k), errs, false);
  const items = itemsOf(s);
  if (items) nestedValueValidation(items, `${path}.items`, errs, false);
  const not = asSchema(s.not);
  if (not) nestedValueValidation(not, `${path}.not`, errs, false);
}

/** Keyword-level checks of the OpenAPI dialect CRDs accept. */
function openAPIErrors(s: JsonSchema, path: string, isRoot: boolean, topLevelMeta: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const type = s.type;
  if (typeof type === "string" && type !== "" && !OPENAPI_TYPES.includes(type))
    errs.push(
      err(
        "FieldValueNotSupported",
        `${path}.type`,
        `supported values: ${OPENAPI_TYPES.map((t) => `"${t}"`).join(", ")}`,
        type,
      ),
    );
  if (topLevelMeta && s.default !== undefined)
    errs.push(
      err(
        "FieldValueForbidden",
        `${path}.default`,
        `must not be set in top-level ${path.slice(path.lastIndexOf("[") + 1, -1)}`,
      ),
    );
  const unsupported: ReadonlyArray<[string, string]> = [
    ["id", "id is not supported"],
    ["additionalItems", "additionalItems is not supported"],
    ["patternProperties", "patternProperties is not supported"],
    ["definitions", "definitions is not supported"],
    ["dependencies", "dependencies is not supported"],
    ["$ref", "$ref is not supported"],
  ];
  for (const [k, detail] of unsupported)
    if (s[k] !== undefined && s[k] !== "" && !(isObject(s[k]) && Object.keys(s[k] as object).length === 0))
      errs.push(err("FieldValueForbidden", `${path}.${k}`, detail));
  if (type === "null")
    errs.push(
      err(
        "FieldValueForbidden",
        `${path}.type`,
        "type cannot be set to null, use nullable as an alternative",
      ),
    );
  if (Array.isArray(s.items))
    errs.push(err("FieldValueForbidden", `${path}.items`, "items must be a schema object and not an array"));
  if (s.uniqueItems === true)
    errs.push(
      err(
        "FieldValueForbidden",
        `${path}.uniqueItems`,
        "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
      ),
    );
  const props = propertiesOf(s);
  if (s.additionalProperties !== undefined) {
    if (Object.keys(props).length > 0 && s.additionalProperties !== true)
      errs.push(
        err(
          "FieldValueForbidden",
          `${path}.additionalProperties`,
          "additionalProperties and properties are mutual exclusive",
        ),
      );
    const additional = additionalPropertiesOf(s);
    if (additional && s.additionalProperties !== true)
      errs.push(...openAPIErrors(additional, `${path}.additionalProperties`, false, false));
  }
  for (const k of Object.keys(props).sort())
    errs.push(...openAPIErrors(props[k] as JsonSchema, key(path, k), false, isRoot && META_FIELDS.has(k)));
  const not = asSchema(s.not);
  if (not) errs.push(...openAPIErrors(not, `${path}.not`, false, false));
  for (const k of ["allOf", "oneOf", "anyOf"] as const) {
    const list = s[k];
    if (Array.isArray(list))
      list.forEach((x, i) => {
        const nested = asSchema(x);
        if (nested) errs.push(...openAPIErrors(nested, `${path}.${k}[${i}]`, false, false));
      });
  }
  const items = itemsOf(s);
  if (items) errs.push(...openAPIErrors(items, `${path}.items`, false, false));
  if (s["x-kubernetes-preserve-unknown-fields"] === false)
    errs.push(
      err(
        "FieldValueInvalid",
        `${path}.x-kubernetes-preserve-unknown-fields`,
        "must be true or undefined",
        false,
      ),
    );
  errs.push(...listAndMapTypeErrors(s, path));
  return errs;
}

function listAndMapTypeErrors(s: JsonSchema, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mapType = s["x-kubernetes-map-type"];
  if (mapType !== undefined) {
    if (s.type !== "object") {
      if (!s.type)
        errs.push(
          err("FieldValueRequired", `${path}.type`, "must be object if x-kubernetes-map-type is specified"),
        );
      else
        errs.push(
          err(
            "FieldValueInvalid",
            `${path}.type`,
            "must be object if x-kubernetes-map-type is specified",
            s.type,
          ),
        );
    }
    if (mapType !== "atomic" && mapType !== "granular")
      errs.push(
        err(
          "FieldValueNotSupported",
          `${path}.x-kubernetes-map-type`,
          'supported values: "atomic", "granular"',
          mapType,
        ),
      );
  }
  const listType = s["x-kubernetes-list-type"];
  if (listType !== undefined) {
    if (s.type !== "array") {
      if (!s.type)
        errs.push(
          err("FieldValueRequired", `${path}.type`, "must be array if x-kubernetes-list-type is specified"),
        );
      else
        errs.push(
          err(
            "FieldValueInvalid",
            `${path}.type`,
            "must be array if x-kubernetes-list-type is specified",
            s.type,
          ),
        );
    }
    if (listType !== "atomic" && listType !== "set" && listType !== "map")
      errs.push(
        err(
          "FieldValueNotSupported",
          `${path}.x-kubernetes-list-type`,
          'supported values: "atomic", "set", "map"',
          listType,
        ),
      );
  }
  const keys = s["x-kubernetes-list-map-keys"];
  if (Array.isArray(keys) && keys.length > 0 && listType !== "map") {
    if (listType === undefined)
      errs.push(
        err(
          "FieldValueRequired",
          `${path}.x-kubernetes-list-type`,
          "must be map if x-kubernetes-list-map-keys is non-empty",
        ),
      );
    else
      errs.push(
        err(
          "FieldValueInvalid",
          `${path}.x-kubernetes-list-type`,
          "must be map if x-kubernetes-list-map-keys is non-empty",
          listType,
        ),
      );
  }
  if (listType === "map") {
    if (!Array.isArray(keys) || keys.length === 0)
      errs.push(
        err(
          "FieldValueRequired",
          `${path}.x-kubernetes-list-map-keys`,
          "must not be empty if x-kubernetes-list-type is map",
        ),
      );
    const items = itemsOf(s);
    if (!items)
      errs.push(
        err("FieldValueRequired", `${path}.items`, "must have a schema if x-kubernetes-list-type is map"),
      );
    else if (items.type !== "object")
      errs.push(
        err(
          "FieldValueInvalid",
          `${path}.items.type`,
          "must be object if parent array's x-kubernetes-list-type is map",
          items.type ?? "",
        ),
      );
    else if (Array.isArray(keys) && keys.some((k) => !(String(k) in propertiesOf(items))))
      errs.push(
        err(
          "FieldValueInvalid",
          `${path}.x-kubernetes-list-map-keys`,
          "entries must all be names of item properties",
          keys,
        ),
      );
  }
  return errs;
}

/** Validation errors of one value against one (sub)schema; none when the schema does not compile. */
function validateValue(s: JsonSchema, value: unknown): FieldError[] {
  try {
    return compileSchema(s)(value);
  } catch (e) {
    if (e instanceof SchemaCompileError) return [];
    throw e;
  }
}

/** Every `default` must survive pruning and validate against its own schema. */
function defaultErrors(s: JsonSchema, path: string, isRoot: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (s.default !== undefined && !isRoot) {
    const where = `${path}.default`;
    const pruned = pruneCustomResource(s.default, s, isEmbeddedResource(s)).value;
    if (JSON.stringify(pruned) !== JSON.stringify(s.default))
      errs.push(err("FieldValueInvalid", where, "must not have unknown fields", s.default));
    for (const e of validateValue(s, s.default)) {
      const field =
        e.field === "" ? where : e.field.startsWith("[") ? `${where}${e.field}` : `${where}.${e.field}`;
      errs.push({ ...e, field: e.field === "<nil>" ? e.field : field });
    }
  }
  const props = propertiesOf(s);
  for (const k of Object.keys(props).sort())
    errs.push(...defaultErrors(props[k] as JsonSchema, key(path, k), false));
  const additional = asSchema(s.additionalProperties);
  if (additional) errs.push(...defaultErrors(additional, `${path}.additionalProperties`, false));
  const items = itemsOf(s);
  if (items) errs.push(...defaultErrors(items, `${path}.items`, false));
  return errs;
}
