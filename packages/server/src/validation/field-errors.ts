/**
 * Building blocks of a kind's validation: apimachinery's field error constructors (Invalid,
 * Required, NotSupported, Forbidden, Duplicate, TooLong, TooMany) and readers that take decoded JSON
 * as Go's typed decoding sees it (a missing or null field is the zero value).
 *
 * kube-apiserver 1.37 checks some fields declaratively; those errors come after the hand-written
 * ones in its message, with their own (often shorter) details. `FieldErrors.covered` collects them
 * so that a kind's rules can stay in the order upstream's file has them.
 */
import type { FieldError } from "../api/status.js";

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
