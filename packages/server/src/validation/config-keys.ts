/** Keys of ConfigMap and Secret data (IsConfigMapKey), and the rule of immutable ConfigMaps and Secrets. */
import { type FieldError, forbidden, invalid, sameGoValue } from "./field-errors.js";
import { regexError } from "./name-formats.js";

const KEY_RE = /^[-._a-zA-Z0-9]+$/;

export function configKeyProblems(key: string): string[] {
  const out: string[] = [];
  if (key.length > 253) out.push("must be no more than 253 characters");
  if (!KEY_RE.test(key))
    out.push(
      regexError(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
        "[-._a-zA-Z0-9]+",
        "key.name",
        "KEY_NAME",
        "key-name",
      ),
    );
  if (key === ".") out.push("must not be '.'");
  else if (key === "..") out.push("must not be '..'");
  else if (key.startsWith("..")) out.push("must not start with '..'");
  return out;
}

/** Every key of the map at `field` (data, binaryData), reported at `field[key]`. */
export function configKeyErrors(map: unknown, field: string): FieldError[] {
  if (typeof map !== "object" || map === null) return [];
  return Object.keys(map).flatMap((k) => configKeyProblems(k).map((m) => invalid(`${field}[${k}]`, k, m)));
}

const IMMUTABLE = "field is immutable when `immutable` is set";

/** Once `immutable` is true it stays true and the listed data fields keep their contents. */
export function immutableDataErrors(
  obj: Record<string, unknown>,
  old: Record<string, unknown>,
  fields: readonly string[],
): FieldError[] {
  if (old.immutable !== true) return [];
  const out: FieldError[] = [];
  if (obj.immutable !== true) out.push(forbidden("immutable", IMMUTABLE));
  for (const f of fields) if (!sameGoValue(obj[f], old[f])) out.push(forbidden(f, IMMUTABLE));
  return out;
}
