/**
 * Schema validation of custom resources, reporting failures the way the apiserver does
 * (kube-openapi's validator messages turned into field errors by apiextensions-apiserver), e.g.
 * `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`.
 * The walk itself is schema-walk.ts (ajv's semantics without its per-schema code generation);
 * formats are kube-openapi strfmt's, shared with the client (@kubesdk/models/internal).
 */
import { KubesdkError } from "@kubesdk/models";
import { STRING_FORMATS } from "@kubesdk/models/internal";
import type { FieldError } from "../api/status.js";
import { TYPE_NAMES, toAjvSchema } from "./ajv-schema.js";
import type { JsonSchema } from "./json-schema.js";
import { type Failure, prepareSchema, SchemaWalker } from "./schema-walk.js";

let walker: SchemaWalker | undefined;
/** A schema that cannot be used (a pattern that is not a Go regular expression, an empty enum). */
export class SchemaCompileError extends KubesdkError {
  readonly code = "SCHEMA_COMPILE" as const;
}

export type SchemaValidator = (obj: unknown) => FieldError[];

/** Prepares a CRD version schema; the result validates whole objects (paths from the object root). */
export function compileSchema(schema: JsonSchema): SchemaValidator {
  const key = JSON.stringify(schema);
  const cached = recent.get(key);
  if (cached) return cached;
  const walkSchema = toAjvSchema(schema);
  try {
    prepareSchema(walkSchema);
  } catch (e) {
    throw new SchemaCompileError((e as Error).message);
  }
  walker ??= new SchemaWalker(STRING_FORMATS);
  const w = walker;
  const validator: SchemaValidator = (obj) =>
    firstStringErrors(w.validate(walkSchema, obj)).flatMap(toFieldError);
  remember(key, validator);
  return validator;
}

/**
 * Throws SchemaCompileError when `schema` could not be used to validate (a pattern Go refuses, an
 * empty enum). Cheaper than compileSchema: a CRD write checks this, and the schema is compiled
 * for serving in a later turn of the event loop.
 */
export function checkSchemaUsable(schema: JsonSchema): void {
  try {
    prepareSchema(schema);
  } catch (e) {
    throw new SchemaCompileError((e as Error).message);
  }
}

/**
 * The last few compiled schemas by their JSON text: writing a CRD compiles each version's schema
 * to check it, and serving it compiles the same schema again right after.
 */
const recent = new Map<string, SchemaValidator>();
const RECENT_LIMIT = 16;

function remember(key: string, validator: SchemaValidator): void {
  recent.set(key, validator);
  if (recent.size > RECENT_LIMIT) recent.delete(recent.keys().next().value as string);
}

const STRING_CHECKS = ["maxLength", "minLength", "pattern"];

/** kube-openapi checks maxLength, minLength, pattern in that order and reports only the first failure. */
function firstStringErrors(errs: readonly Failure[]): Failure[] {
  const rank = (e: Failure) => STRING_CHECKS.indexOf(e.keyword);
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

/** One failure with what its translation needs: kube-openapi names a value by its path ("" for the root). */
interface Failed {
  readonly e: Failure;
  readonly path: string;
  readonly data: unknown;
  readonly params: Record<string, unknown>;
}

const invalid = (f: Failed, value: unknown, detail: string): FieldError[] => [
  { type: "FieldValueInvalid", field: f.path, value, detail },
];
const combinator = (detail: string): FieldError[] => [
  { type: "FieldValueInvalid", field: "<nil>", value: "", detail },
];
const sizeOf = (data: unknown) =>
  Array.isArray(data)
    ? data.length
    : typeof data === "object" && data !== null
      ? Object.keys(data).length
      : data;

function typeError(f: Failed): FieldError[] {
  const expected = f.e.parentSchema[TYPE_NAMES] ?? f.params.type;
  const t = jsonTypeOf(f.data);
  const detail = `${f.path} in body must be of type ${String(expected)}: "${t}"`;
  return [{ type: "FieldValueTypeInvalid", field: f.path, value: t, detail }];
}

function enumError(f: Failed): FieldError[] {
  const allowed = (f.params.allowedValues as unknown[]).map((v) =>
    JSON.stringify(typeof v === "string" ? v : JSON.stringify(v)),
  );
  return [
    {
      type: "FieldValueNotSupported",
      field: f.path,
      value: f.data,
      detail: `supported values: ${allowed.join(", ")}`,
    },
  ];
}

function comparisonError(f: Failed): FieldError[] {
  const how = COMPARISON[String(f.params.comparison)] ?? "";
  return invalid(f, f.data, `${f.path} in body should be ${how} ${bound(f.params.limit)}`);
}

function oneOfError(f: Failed): FieldError[] {
  const passing = f.params.passingSchemas as unknown[] | undefined;
  const found = passing ? `Found ${passing.length} valid alternatives` : "Found none valid";
  return combinator(`"${f.path}" must validate one and only one schema (oneOf). ${found}`);
}

/** ajv keyword → upstream's field errors. */
const TRANSLATIONS: Readonly<Record<string, (f: Failed) => FieldError[]>> = {
  type: typeError,
  required: (f) => {
    const missing = String(f.params.missingProperty);
    return [
      { type: "FieldValueRequired", field: f.path === "" ? missing : `${f.path}.${missing}`, detail: "" },
    ];
  },
  enum: enumError,
  minimum: comparisonError,
  maximum: comparisonError,
  exclusiveMinimum: comparisonError,
  exclusiveMaximum: comparisonError,
  multipleOf: (f) =>
    invalid(f, f.data, `${f.path} in body should be a multiple of ${bound(f.params.multipleOf)}`),
  maxLength: (f) => [
    {
      type: "FieldValueTooLong",
      field: f.path,
      detail: `may not be more than ${plural(f.params.limit, "byte")}`,
    },
  ],
  minLength: (f) =>
    invalid(f, f.data, `${f.path} in body should be at least ${String(f.params.limit)} chars long`),
  pattern: (f) => invalid(f, f.data, `${f.path} in body should match '${String(f.params.pattern)}'`),
  format: (f) => [
    {
      type: "FieldValueTypeInvalid",
      field: f.path,
      value: f.data,
      detail: `${f.path} in body must be of type ${String(f.params.format)}: ${JSON.stringify(f.data)}`,
    },
  ],
  minItems: (f) =>
    invalid(f, sizeOf(f.data), `${f.path} in body should have at least ${String(f.params.limit)} items`),
  // Upstream reports maxItems/maxProperties as "Too many" (FieldValueTooMany), a cause type the
  // shared FieldError does not have yet; the same facts are reported as an invalid value instead.
  maxItems: (f) =>
    invalid(f, sizeOf(f.data), `${f.path} in body should have at most ${String(f.params.limit)} items`),
  minProperties: (f) =>
    invalid(f, sizeOf(f.data), `${f.path} in body should have at least ${String(f.params.limit)} properties`),
  maxProperties: (f) =>
    invalid(f, sizeOf(f.data), `${f.path} in body should have at most ${String(f.params.limit)} properties`),
  uniqueItems: (f) => invalid(f, f.data, `${f.path} in body shouldn't contain duplicates`),
  additionalProperties: (f) => {
    const extra = String(f.params.additionalProperty);
    return invalid(f, extra, `${f.path}.${extra} in body is a forbidden property`);
  },
  anyOf: (f) => combinator(`"${f.path}" must validate at least one schema (anyOf)`),
  oneOf: oneOfError,
  not: (f) => combinator(`"${f.path}" must not validate the schema (not)`),
};

function toFieldError(e: Failure): FieldError[] {
  // allOf failures are reported through the failing branch; other keywords are not used by CRD schemas.
  const translate = Object.hasOwn(TRANSLATIONS, e.keyword) ? TRANSLATIONS[e.keyword] : undefined;
  if (!translate) return [];
  return translate({
    e,
    path: pathOf(e.instancePath),
    data: e.data,
    params: e.params,
  });
}

function plural(n: unknown, unit: string): string {
  return `${String(n)} ${unit}${n === 1 ? "" : "s"}`;
}
