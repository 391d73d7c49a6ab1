/**
 * Keyword-level checks of the OpenAPI dialect CRD schemas accept: supported
 * types, no $ref/definitions/patternProperties/..., no uniqueItems, properties
 * and additionalProperties not together, and consistent x-kubernetes-list-type,
 * x-kubernetes-list-map-keys and x-kubernetes-map-type markers.
 */
import type { FieldError } from "../api/status.js";
import {
  additionalPropertiesOf,
  asSchema,
  isObject,
  itemsOf,
  type JsonSchema,
  propertiesOf,
} from "./json-schema.js";
import { err, key, requiredOrInvalid } from "./schema-paths.js";

const OPENAPI_TYPES = ["array", "boolean", "integer", "number", "object", "string"];
const META_FIELDS = new Set(["apiVersion", "kind", "metadata"]);

/** Keyword-level checks of the OpenAPI dialect CRDs accept. */
export function openAPIErrors(
  s: JsonSchema,
  path: string,
  isRoot: boolean,
  topLevelMeta: boolean,
): FieldError[] {
  const errs = [...keywordErrors(s, path, topLevelMeta), ...nestedErrors(s, path, isRoot)];
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

const UNSUPPORTED: ReadonlyArray<[string, string]> = [
  "id",
  "additionalItems",
  "patternProperties",
  "definitions",
  "dependencies",
  "$ref",
].map((k) => [k, `${k} is not supported`]);

/** Checks of this level's own keywords. */
function keywordErrors(s: JsonSchema, path: string, topLevelMeta: boolean): FieldError[] {
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
  for (const [k, detail] of UNSUPPORTED)
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
  return errs;
}

/** Checks of the schemas nested in this one, in upstream's order. */
function nestedErrors(s: JsonSchema, path: string, isRoot: boolean): FieldError[] {
  const errs: FieldError[] = [];
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
  return errs;
}

function listAndMapTypeErrors(s: JsonSchema, path: string): FieldError[] {
  return [...mapTypeErrors(s, path), ...listTypeErrors(s, path), ...listMapErrors(s, path)];
}

/**
 * `x-kubernetes-map-type` / `x-kubernetes-list-type`, when set: the schema's `type` must be `type`
 * and the keyword's value one of `values`.
 */
function typeKeywordErrors(
  s: JsonSchema,
  path: string,
  keyword: "x-kubernetes-map-type" | "x-kubernetes-list-type",
  type: "object" | "array",
  values: readonly string[],
): FieldError[] {
  const value = s[keyword];
  if (value === undefined) return [];
  const errs: FieldError[] = [];
  if (s.type !== type)
    errs.push(
      requiredOrInvalid(!s.type, `${path}.type`, `must be ${type} if ${keyword} is specified`, s.type),
    );
  if (!values.includes(value as string))
    errs.push(
      err(
        "FieldValueNotSupported",
        `${path}.${keyword}`,
        `supported values: ${values.map((v) => `"${v}"`).join(", ")}`,
        value,
      ),
    );
  return errs;
}

function mapTypeErrors(s: JsonSchema, path: string): FieldError[] {
  return typeKeywordErrors(s, path, "x-kubernetes-map-type", "object", ["atomic", "granular"]);
}

function listTypeErrors(s: JsonSchema, path: string): FieldError[] {
  const listType = s["x-kubernetes-list-type"];
  const errs = typeKeywordErrors(s, path, "x-kubernetes-list-type", "array", ["atomic", "set", "map"]);
  const keys = s["x-kubernetes-list-map-keys"];
  if (Array.isArray(keys) && keys.length > 0 && listType !== "map")
    errs.push(
      requiredOrInvalid(
        listType === undefined,
        `${path}.x-kubernetes-list-type`,
        "must be map if x-kubernetes-list-map-keys is non-empty",
        listType,
      ),
    );
  return errs;
}

function listMapErrors(s: JsonSchema, path: string): FieldError[] {
  if (s["x-kubernetes-list-type"] !== "map") return [];
  const keys = s["x-kubernetes-list-map-keys"];
  const errs: FieldError[] = [];
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
  return errs;
}
