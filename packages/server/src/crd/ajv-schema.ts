/**
 * Translates a CRD's openAPIV3Schema (OpenAPI 3.0 dialect with Kubernetes
 * extensions) into a JSON Schema that ajv compiles, keeping only the value
 * validations the apiserver applies:
 * - `x-kubernetes-int-or-string` → type integer or string;
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` → their numeric draft-07 form;
 * - `nullable` → ajv's own `nullable` keyword;
 * - formats outside the apiserver's list are dropped (upstream strips them too);
 * - descriptions, defaults, examples and every `x-kubernetes-*` marker are left
 *   out (they do not validate values).
 * The original type list is kept under TYPE_NAMES for error messages.
 */
import { asSchema, isObject, type JsonSchema, SIZE_AND_PATTERN_KEYWORDS } from "./json-schema.js";

export const TYPE_NAMES = "x-kubesdk-types";

/** String formats the apiserver validates (k8s.io/apiextensions-apiserver formats.go, as of 1.34). */
export const STRING_FORMATS = new Set([
  "bsonobjectid",
  "uri",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "cidr",
  "mac",
  "uuid",
  "uuid3",
  "uuid4",
  "uuid5",
  "isbn",
  "isbn10",
  "isbn13",
  "creditcard",
  "ssn",
  "hexcolor",
  "rgbcolor",
  "byte",
  "password",
  "date",
  "duration",
  "datetime",
  "k8s-short-name",
  "k8s-long-name",
]);

const COPIED = ["enum", ...SIZE_AND_PATTERN_KEYWORDS, "maxProperties", "minProperties"] as const;

export type AjvSchema = Record<string, unknown>;

export function toAjvSchema(s: JsonSchema): AjvSchema {
  const out: AjvSchema = {};
  const type = s["x-kubernetes-int-or-string"] === true ? ["integer", "string"] : s.type;
  if (typeof type === "string" || Array.isArray(type)) {
    out.type = type;
    out[TYPE_NAMES] = Array.isArray(type) ? type.join(",") : type;
  }
  if (s.nullable === true && out.type !== undefined) out.nullable = true;
  const format = keptFormat(s);
  if (format) out.format = format;
  for (const k of COPIED) if (s[k] !== undefined) out[k] = s[k];
  if (typeof s.minimum === "number") {
    if (s.exclusiveMinimum === true) out.exclusiveMinimum = s.minimum;
    else out.minimum = s.minimum;
  }
  if (typeof s.maximum === "number") {
    if (s.exclusiveMaximum === true) out.exclusiveMaximum = s.maximum;
    else out.maximum = s.maximum;
  }
  if (isObject(s.properties)) {
    const props: Record<string, AjvSchema> = {};
    for (const [k, v] of Object.entries(s.properties)) {
      const child = asSchema(v);
      if (child) props[k] = toAjvSchema(child);
    }
    out.properties = props;
  }
  const additional = s.additionalProperties;
  if (typeof additional === "boolean") out.additionalProperties = additional;
  else if (asSchema(additional)) out.additionalProperties = toAjvSchema(additional as JsonSchema);
  const items = asSchema(s.items);
  if (items) out.items = toAjvSchema(items);
  for (const k of ["allOf", "anyOf", "oneOf"] as const) {
    const list = s[k];
    if (Array.isArray(list)) out[k] = list.map((x) => toAjvSchema(asSchema(x) ?? ({} as JsonSchema)));
  }
  const not = asSchema(s.not);
  if (not) out.not = toAjvSchema(not);
  return out;
}

function keptFormat(s: JsonSchema): string | undefined {
  const f = s.format;
  if (typeof f !== "string" || f === "") return undefined;
  const type = typeof s.type === "string" ? s.type : "";
  if (type === "" || type === "string") {
    const normalized = f.replaceAll("-", "");
    return STRING_FORMATS.has(normalized) || STRING_FORMATS.has(f) ? f : undefined;
  }
  if (type === "integer") return f === "int32" || f === "int64" ? f : undefined;
  if (type === "number") return f === "float" || f === "double" ? f : undefined;
  return undefined;
}
