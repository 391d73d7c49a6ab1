/**
 * Schema validation of custom resources with ajv, reporting failures the way
 * the apiserver does (kube-openapi's validator messages turned into field
 * errors by apiextensions-apiserver), e.g.
 * `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`.
 */
import { KubesdkError } from "@kubesdk/models";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FieldError } from "../api/status.js";
import { TYPE_NAMES, toAjvSchema } from "./ajv-schema.js";
import type { JsonSchema } from "./json-schema.js";

// ajv-formats is CommonJS with a `default` export; under NodeNext the default import is the module.
const addFormats = addFormatsModule.default;

/** Formats go-openapi knows and ajv-formats does not; regexes follow go-openapi's definitions. */
const EXTRA_FORMATS: Record<string, RegExp | ((s: string) => boolean)> = {
  bsonobjectid: /^[0-9a-fA-F]{24}$/,
  cidr: /^(?:(?:\d{1,3}\.){3}\d{1,3}\/\d{1,2}|[0-9a-fA-F:.]+\/\d{1,3})$/,
  mac: /^(?:[0-9a-fA-F]{2}[:-]){5,19}[0-9a-fA-F]{2}$|^(?:[0-9a-fA-F]{4}\.){2,9}[0-9a-fA-F]{4}$/,
  uuid3: /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i,
  uuid4: /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i,
  uuid5: /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i,
  isbn: /^(?:\d{9}[\dX]|\d{13}|[\d-]{13}|[\d-]{17})$/,
  isbn10: /^(?:\d{9}[\dX]|[\d-]{13})$/,
  isbn13: /^(?:\d{13}|[\d-]{17})$/,
  creditcard: (s) =>
    /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/.test(
      s.replace(/\D/g, ""),
    ),
  ssn: /^\d{3}[- ]?\d{2}[- ]?\d{4}$/,
  hexcolor: /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/,
  rgbcolor: /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/,
  // Go durations ("1h30m") and go-openapi's spelled-out units ("3 days").
  duration: /^\s*[-+]?(?:\d+(?:\.\d*)?\s*(?:ns|us|µs|ms|s|m|h|d|w|y|[a-z]+)\s*)+$/i,
  datetime: (s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d/.test(s),
  "k8s-short-name": /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/,
  "k8s-long-name": (s) =>
    s.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(s),
};

function newAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, verbose: true, logger: false, unicodeRegExp: false });
  addFormats(ajv, [
    "date",
    "date-time",
    "uri",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
    "byte",
    "password",
  ]);
  for (const [name, f] of Object.entries(EXTRA_FORMATS)) ajv.addFormat(name, f);
  ajv.addFormat("datetime", EXTRA_FORMATS.datetime as (s: string) => boolean);
  return ajv;
}

let shared: Ajv | undefined;

/** A schema ajv cannot compile (e.g. a pattern that is not an ECMAScript regular expression). */
export class SchemaCompileError extends KubesdkError {
  readonly code = "SCHEMA_COMPILE" as const;
}

export type SchemaValidator = (obj: unknown) => FieldError[];

/** Compiles a CRD version schema; the result validates whole objects (paths from the object root). */
export function compileSchema(schema: JsonSchema): SchemaValidator {
  shared ??= newAjv();
  let validate: ValidateFunction;
  try {
    validate = shared.compile(toAjvSchema(schema));
  } catch (e) {
    throw new SchemaCompileError((e as Error).message);
  }
  return (obj) => (validate(obj) ? [] : firstStringErrors(validate.errors ?? []).flatMap(toFieldError));
}

const STRING_CHECKS = ["maxLength", "minLength", "pattern"];

/** kube-openapi checks maxLength, minLength, pattern in that order and reports only the first failure. */
function firstStringErrors(errs: readonly ErrorObject[]): ErrorObject[] {
  const rank = (e: ErrorObject) => STRING_CHECKS.indexOf(e.keyword);
  return errs.filter(
    (e) =>
      rank(e) < 0 ||
      !errs.some((o) => o.instancePath === e.instancePath && rank(o) >= 0 && rank(o) < rank(e)),
  );
}

/** The JSON type name kube-openapi infers from a decoded value. */
function jsonTypeOf(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v === "object" ? "object" : typeof v;
}

function pathOf(pointer: string): string {
  let out = "";
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out = out === "" ? seg : `${out}.${seg}`;
  }
  return out;
}

/** Go's %v of a bound; identical to String() for the integers and short decimals schemas use. */
const bound = (v: unknown): string => String(v);

const COMPARISON: Record<string, string> = {
  ">=": "greater than or equal to",
  ">": "greater than",
  "<=": "less than or equal to",
  "<": "less than",
};

function toFieldError(e: ErrorObject): FieldError[] {
  const path = pathOf(e.instancePath);
  // kube-openapi names the value by its path from the validated root ("" for the root itself).
  const name = path;
  const data = e.data;
  const params = e.params as Record<string, unknown>;
  const invalid = (value: unknown, detail: string): FieldError[] => [
    { type: "FieldValueInvalid", field: path, value, detail },
  ];
  switch (e.keyword) {
    case "type": {
      const expected = (e.parentSchema as Record<string, unknown> | undefined)?.[TYPE_NAMES] ?? params.type;
      const t = jsonTypeOf(data);
      return [
        {
          type: "FieldValueTypeInvalid",
          field: path,
          value: t,
          detail: `${name} in body must be of type ${String(expected)}: "${t}"`,
        },
      ];
    }
    case "required": {
      const missing = String(params.missingProperty);
      return [
        { type: "FieldValueRequired", field: path === "" ? missing : `${path}.${missing}`, detail: "" },
      ];
    }
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map((v) =>
        JSON.stringify(typeof v === "string" ? v : JSON.stringify(v)),
      );
      return [
        {
          type: "FieldValueNotSupported",
          field: path,
          value: data,
          detail: `supported values: ${allowed.join(", ")}`,
        },
      ];
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return invalid(
        data,
        `${name} in body should be ${COMPARISON[String(params.comparison)] ?? ""} ${bound(params.limit)}`,
      );
    case "multipleOf":
      return invalid(data, `${name} in body should be a multiple of ${bound(params.multipleOf)}`);
    case "maxLength":
      return [
        {
          type: "FieldValueTooLong",
          field: path,
          detail: `may not be more than ${plural(params.limit, "byte")}`,
        },
      ];
    case "minLength":
      return invalid(data, `${name} in body should be at least ${String(params.limit)} chars long`);
    case "pattern":
      return invalid(data, `${name} in body should match '${String(params.pattern)}'`);
    case "format":
      return [
        {
          type: "FieldValueTypeInvalid",
          field: path,
          value: data,
          detail: `${name} in body must be of type ${String(params.format)}: ${JSON.stringify(data)}`,
        },
      ];
    case "minItems":
      return invalid(
        Array.isArray(data) ? data.length : data,
        `${name} in body should have at least ${String(params.limit)} items`,
      );
    // Upstream reports maxItems/maxProperties as "Too many" (FieldValueTooMany), a cause type the
    // shared FieldError does not have yet; the same facts are reported as an invalid value instead.
    case "maxItems":
      return invalid(
        Array.isArray(data) ? data.length : data,
        `${name} in body should have at most ${String(params.limit)} items`,
      );
    case "minProperties":
    case "maxProperties":
      return invalid(
        typeof data === "object" && data !== null ? Object.keys(data).length : data,
        `${name} in body should have ${e.keyword === "minProperties" ? "at least" : "at most"} ${String(params.limit)} properties`,
      );
    case "uniqueItems":
      return invalid(data, `${name} in body shouldn't contain duplicates`);
    case "additionalProperties":
      return invalid(
        String(params.additionalProperty),
        `${name}.${String(params.additionalProperty)} in body is a forbidden property`,
      );
    case "anyOf":
      return [
        {
          type: "FieldValueInvalid",
          field: "<nil>",
          value: "",
          detail: `"${name}" must validate at least one schema (anyOf)`,
        },
      ];
    case "oneOf":
      return [
        {
          type: "FieldValueInvalid",
          field: "<nil>",
          value: "",
          detail: `"${name}" must validate one and only one schema (oneOf). ${
            params.passingSchemas
              ? `Found ${(params.passingSchemas as unknown[]).length} valid alternatives`
              : "Found none valid"
          }`,
        },
      ];
    case "not":
      return [
        {
          type: "FieldValueInvalid",
          field: "<nil>",
          value: "",
          detail: `"${name}" must not validate the schema (not)`,
        },
      ];
    default:
      // allOf failures are reported through the failing branch; other keywords are not used by CRD schemas.
      return [];
  }
}

function plural(n: unknown, unit: string): string {
  return `${String(n)} ${unit}${n === 1 ? "" : "s"}`;
}
