/**
 * The structural-schema invariants apiextensions-apiserver requires of a CRD
 * schema: a type at every level, items for arrays, no additionalProperties at
 * the root, metadata restricted to name/generateName, typed kind/apiVersion,
 * and nothing but value validations inside allOf/anyOf/oneOf/not (with the
 * two int-or-string exceptions). Errors come sorted by their text, as upstream
 * sorts them.
 */
import type { FieldError } from "../api/status.js";
import { goRegexpError } from "./go-regexp.js";
import {
  asSchema,
  isEmbeddedResource,
  isIntOrString,
  isObject,
  itemsOf,
  type JsonSchema,
  preservesUnknown,
  propertiesOf,
} from "./json-schema.js";
import { err, key, type Level, requiredOrInvalid } from "./schema-paths.js";

/** Structural invariants, sorted by their rendered text as upstream sorts them. */
export function structuralErrors(s: JsonSchema, level: Level, path: string): FieldError[] {
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
  typeInvariants(s, level, path, errs);
  metaInvariants(s, level, path, errs);
}

const WHERE: Record<Level, string> = {
  root: "at the root",
  item: "for specified array items",
  field: "for specified object fields",
};

/** A type everywhere (object at the root and for embedded resources). */
function typeInvariants(s: JsonSchema, level: Level, path: string, errs: FieldError[]): void {
  const type = typeof s.type === "string" ? s.type : "";
  const embedded = isEmbeddedResource(s);
  if (embedded && type !== "object") {
    errs.push(
      requiredOrInvalid(
        type === "",
        `${path}.type`,
        "must be object if x-kubernetes-embedded-resource is true",
        type,
      ),
    );
  } else if (type === "" && !isIntOrString(s) && !preservesUnknown(s)) {
    errs.push(err("FieldValueRequired", `${path}.type`, `must not be empty ${WHERE[level]}`));
  }
  if (level === "root" && type !== "" && type !== "object")
    errs.push(err("FieldValueInvalid", `${path}.type`, "must be object at the root", type));
}

/** kind/apiVersion/metadata of the root and of embedded resources. */
function metaInvariants(s: JsonSchema, level: Level, path: string, errs: FieldError[]): void {
  const embedded = isEmbeddedResource(s);
  const props = propertiesOf(s);
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
  patternErrors(s, path, errs);
}

/** A `pattern` must compile as Go's regexp (RE2 syntax); the cause carries Go's parse error. */
function patternErrors(s: JsonSchema, path: string, errs: FieldError[]): void {
  if (typeof s.pattern !== "string" || s.pattern === "") return;
  const why = goRegexpError(s.pattern);
  if (why !== undefined)
    errs.push(
      err(
        "FieldValueInvalid",
        `${path}.pattern`,
        `must be a valid regular expression, but isn't: ${why}`,
        s.pattern,
      ),
    );
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
  patternErrors(s, path, errs);
}
