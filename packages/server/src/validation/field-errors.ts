/**
 * Building blocks of a kind's validation: apimachinery's field error constructors (Invalid,
 * Required, NotSupported, Forbidden, Duplicate, TooLong, TooMany) and readers that take decoded JSON
 * as Go's typed decoding sees it (a missing or null field is the zero value).
 *
 * kube-apiserver 1.37 checks some fields declaratively; those errors come after the hand-written
 * ones in its message, with their own (often shorter) details. `FieldErrors.covered` collects them
 * so that a kind's rules can stay in the order upstream's file has them.
 */
import { type FieldError, GoSyntax } from "../api/status.js";

export type { FieldError } from "../api/status.js";

export type Json = Record<string, unknown>;

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
export const notSupported = (field: string, value: unknown, supported: readonly string[]): FieldError => ({
  type: "FieldValueNotSupported",
  field,
  value,
  detail:
    supported.length > 0 ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}` : "",
});
export const tooLong = (field: string, max: number): FieldError => ({
  type: "FieldValueTooLong",
  field,
  detail: `may not be more than ${max} ${max === 1 ? "byte" : "bytes"}`,
});
export const tooMany = (field: string, actual: number, max: number): FieldError => ({
  type: "FieldValueTooMany",
  field,
  value: actual,
  detail: `must have at most ${max} ${max === 1 ? "item" : "items"}`,
});
/** The value is shown by hand-written checks; the declarative ones (1.37) print null. */
export const immutable = (field: string, value: unknown): FieldError =>
  invalid(field, value, "field is immutable");

/** Hand-written errors in order, then the declaratively checked ones (upstream's message order). */
export class FieldErrors {
  private readonly hand: FieldError[] = [];
  private readonly declared: FieldError[] = [];
  add(...errs: FieldError[]): this {
    this.hand.push(...errs);
    return this;
  }
  covered(...errs: FieldError[]): this {
    this.declared.push(...errs);
    return this;
  }
  list(): FieldError[] {
    return [...this.hand, ...this.declared];
  }
}

/** Readers: Go's zero value for a missing, null or mistyped field. */
export const obj = (v: unknown): Json =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === "string" ? v : "");
export const strs = (v: unknown): string[] => arr(v).map(str);
export const num = (v: unknown): number => (typeof v === "number" ? v : 0);
/** Whether a pointer field is set (present and not null). */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;
export const stringMap = (v: unknown): [string, string][] =>
  Object.entries(obj(v)).map(([k, x]) => [k, str(x)]);

/** Deep equality of decoded JSON, with unset and null alike (Go's nil). */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v === "object" && v !== null) {
    const out: Json = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Json)[k];
      if (x !== undefined && x !== null) out[k] = canonical(x);
    }
    return out;
  }
  return v ?? null;
}

/** field.NotFound: a reference to something the object does not have (a volume mount's volume). */
export const notFound = (field: string, value: unknown): FieldError => ({
  type: "FieldValueNotFound",
  field,
  value,
  detail: "",
});

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
function zeroAlike(v: unknown): string {
  if (v === undefined || v === null || v === "" || v === 0 || v === false) return "";
  if (Array.isArray(v) && v.length === 0) return "";
  if (typeof v === "object" && !Array.isArray(v) && Object.keys(v as object).length === 0) return "";
  return JSON.stringify(goJson(v));
}

/** Equality of decoded JSON where every zero value equals unset (a non-pointer Go field). */
export const sameGoValue = (a: unknown, b: unknown): boolean => zeroAlike(a) === zeroAlike(b);

/**
 * ValidateImmutableField for a field that may not change on update (zero values equal unset);
 * `shown` is the new value as the message renders it.
 */
export function unchanged(
  field: string,
  now: unknown,
  before: unknown,
  shown: unknown = now === undefined ? null : goJson(now),
): FieldError[] {
  return sameGoValue(now, before) ? [] : [immutable(field, shown)];
}

/** A Go struct printed with field names as Go writes them (no json tags), e.g. {"Type":"Foo"}. */
export function goStruct(fields: readonly (readonly [string, unknown])[]): GoSyntax {
  const body = fields.map(([k, v]) => `${JSON.stringify(k)}:${v === undefined ? "null" : JSON.stringify(v)}`);
  return new GoSyntax(`{${body.join(",")}}`);
}

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** The object at `v`, or an empty one (Go's zero struct) when unset or not an object. */
export const objectAt = obj;
export const listAt = arr;
export const stringAt = str;
/** Entries of a string map (labels, selectors, data). */
export const entriesOf = stringMap;
