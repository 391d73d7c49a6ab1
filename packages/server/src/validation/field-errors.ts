/**
 * Constructors for apimachinery's field errors (field.Invalid, field.Required, …) and the few
 * value checks every spec validation shares (non-negative integers, immutable fields), with
 * upstream's wording. A validation rule returns a list of these; the request stage turns them into
 * a 422 Status with one cause each.
 */
import { type FieldError, GoSyntax } from "../api/status.js";

export type { FieldError } from "../api/status.js";

export const invalid = (field: string, value: unknown, detail: string): FieldError => ({
  type: "FieldValueInvalid",
  field,
  value,
  detail,
});
export const required = (field: string, detail = ""): FieldError => ({
  type: "FieldValueRequired",
  field,
  detail,
});
export const forbidden = (field: string, detail: string): FieldError => ({
  type: "FieldValueForbidden",
  field,
  detail,
});
export const duplicate = (field: string, value: unknown): FieldError => ({
  type: "FieldValueDuplicate",
  field,
  value,
  detail: "",
});
export const notFound = (field: string, value: unknown): FieldError => ({
  type: "FieldValueNotFound",
  field,
  value,
  detail: "",
});
export const tooLong = (field: string, detail: string): FieldError => ({
  type: "FieldValueTooLong",
  field,
  detail,
});

/** field.NotSupported: the value and the quoted list of what is supported. */
export function notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
  const list = supported.map((s) => JSON.stringify(s)).join(", ");
  return { type: "FieldValueNotSupported", field, value, detail: `supported values: ${list}` };
}

export const NEGATIVE = "must be greater than or equal to 0";

/** ValidateNonnegativeField on an integer field that Go reads as 0 when unset. */
export function nonNegative(field: string, value: unknown): FieldError[] {
  return typeof value === "number" && value < 0 ? [invalid(field, value, NEGATIVE)] : [];
}

/** A value as Go's encoding/json writes it: map keys sorted (struct field order is the caller's). */
export function goJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(goJson);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value as object).sort()) out[k] = goJson((value as Record<string, unknown>)[k]);
  return out;
}

/** A string map (labels, selectors) as upstream renders it in a message: sorted, null when unset. */
export function renderedMap(value: unknown): unknown {
  return value === undefined ? null : goJson(value);
}

/** Unset and Go's zero values (null, "", 0, false, {}, []) read the same. */
function comparable(v: unknown): string {
  if (v === undefined || v === null || v === "" || v === 0 || v === false) return "";
  if (Array.isArray(v) && v.length === 0) return "";
  if (typeof v === "object" && !Array.isArray(v) && Object.keys(v as object).length === 0) return "";
  return JSON.stringify(goJson(v));
}

export const sameValue = (a: unknown, b: unknown): boolean => comparable(a) === comparable(b);

/** ValidateImmutableField: a field that may not change on update. `shown` renders the new value. */
export function immutable(
  field: string,
  now: unknown,
  before: unknown,
  shown: unknown = now === undefined ? null : goJson(now),
): FieldError[] {
  return sameValue(now, before) ? [] : [invalid(field, shown, "field is immutable")];
}

/** A Go struct printed with field names as Go writes them (no json tags), e.g. {"Type":"Foo"}. */
export function goStruct(fields: readonly (readonly [string, unknown])[]): GoSyntax {
  const body = fields.map(([k, v]) => `${JSON.stringify(k)}:${v === undefined ? "null" : JSON.stringify(v)}`);
  return new GoSyntax(`{${body.join(",")}}`);
}

type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** The object at `v`, or an empty one (Go's zero struct) when unset or not an object. */
export const objectAt = (v: unknown): Json => (isObject(v) ? v : {});
export const listAt = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const stringAt = (v: unknown): string => (typeof v === "string" ? v : "");
/** Entries of a string map (labels, selectors, data). */
export const entriesOf = (v: unknown): [string, string][] =>
  isObject(v) ? Object.entries(v).map(([k, x]) => [k, typeof x === "string" ? x : ""]) : [];
