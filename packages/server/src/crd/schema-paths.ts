/** Helpers shared by the CRD schema checks: field paths and FieldError construction. */
import type { FieldError } from "../api/status.js";

export type Level = "root" | "field" | "item";

/** `<parent>.properties[<k>]`, the path form apiextensions uses for schema properties. */
export const key = (parent: string, k: string): string => `${parent}.properties[${k}]`;

export const err = (type: FieldError["type"], field: string, detail: string, value?: unknown): FieldError =>
  value === undefined ? { type, field, detail } : { type, field, detail, value };

/** FieldValueRequired when the value is missing, else FieldValueInvalid with it. */
export const requiredOrInvalid = (
  missing: boolean,
  field: string,
  detail: string,
  value: unknown,
): FieldError =>
  missing ? err("FieldValueRequired", field, detail) : err("FieldValueInvalid", field, detail, value);
