/** Query options shared by write verbs. */
import { errors, type FieldError } from "../../api/status.js";

/** `dryRun=All` (repeatable); anything else, an empty value too, is 422 like upstream's options validation. */
export function parseDryRun(q: URLSearchParams, optionsKind = "CreateOptions"): boolean {
  const values = q.getAll("dryRun");
  if (values.some((v) => v !== "All"))
    throw errors.invalid(optionsKind, "meta.k8s.io", "", [
      { type: "FieldValueNotSupported", field: "dryRun", value: values, detail: 'supported values: "All"' },
    ]);
  return values.length > 0;
}

const INT64_MAX = 2n ** 63n - 1n;

/** An int64 query parameter as Go's strconv.ParseInt reads it (400 with its wording otherwise). */
export function parseInt64Param(raw: string): number {
  if (!/^[+-]?\d+$/.test(raw))
    throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
  const n = BigInt(raw);
  if (n > INT64_MAX || n < -INT64_MAX - 1n)
    throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: value out of range`);
  return Number(n);
}

/** Upstream's limit on a fieldManager's length, in bytes. */
export const FIELD_MANAGER_MAX_LENGTH = 128;

/** A fieldManager is at most 128 bytes of printable characters (422 on the options kind otherwise). */
export function checkFieldManager(manager: string, optionsKind: string): void {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager) > FIELD_MANAGER_MAX_LENGTH)
    errs.push({
      type: "FieldValueTooLong",
      field: "fieldManager",
      value: manager,
      detail: `may not be more than ${FIELD_MANAGER_MAX_LENGTH} bytes`,
    });
  let i = 0;
  for (const ch of manager) {
    if (/[\p{C}\p{Z}]/u.test(ch) && ch !== " ")
      errs.push({
        type: "FieldValueInvalid",
        field: "fieldManager",
        value: manager,
        detail: `invalid character U+${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")} (at position ${i})`,
      });
    i += Buffer.byteLength(ch);
  }
  if (errs.length > 0) throw errors.invalid(optionsKind, "meta.k8s.io", "", errs);
}
