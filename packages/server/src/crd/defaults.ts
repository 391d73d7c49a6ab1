/**
 * Structural defaulting of custom resources: nulls the schema does not allow
 * and cannot default are dropped, then absent (or disallowed-null) fields get
 * a deep copy of their `default`, top-down, so defaults nested in a default
 * apply too. Returns a new value; the input is left untouched.
 */
import { setMember } from "@kubesdk/models/internal";
import { copyDecoded } from "../api/copy.js";
import { additionalPropertiesOf, isObject, itemsOf, type JsonSchema, propertiesOf } from "./json-schema.js";

const nonNullableNull = (x: unknown, s: JsonSchema | undefined): boolean =>
  x === null && s !== undefined && s.nullable !== true;

export function applyStructuralDefaults<T>(x: T, s: JsonSchema | undefined): T {
  return defaulted(x, s) as T;
}

function defaulted(x: unknown, s: JsonSchema | undefined): unknown {
  if (!s) return x;
  if (Array.isArray(x)) {
    const items = itemsOf(s);
    return x.map((v) => {
      const filled =
        nonNullableNull(v, items) && items?.default !== undefined ? copyDecoded(items.default) : v;
      return defaulted(filled, items);
    });
  }
  if (!isObject(x)) return x;
  const props = propertiesOf(s);
  const additional = additionalPropertiesOf(s);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x)) {
    const child = (Object.hasOwn(props, k) ? props[k] : undefined) ?? additional;
    // A null where the schema allows none and no default would replace it: dropped.
    if (nonNullableNull(v, child) && child?.default === undefined) continue;
    setMember(out, k, v);
  }
  for (const [k, prop] of Object.entries(props)) {
    if (prop.default === undefined) continue;
    if (!Object.hasOwn(out, k) || nonNullableNull(out[k], prop)) setMember(out, k, copyDecoded(prop.default));
  }
  for (const [k, v] of Object.entries(out)) {
    const child = (Object.hasOwn(props, k) ? props[k] : undefined) ?? additional;
    if (!child) continue;
    out[k] = defaulted(nonNullableNull(v, child) ? copyDecoded(child.default) : v, child);
  }
  return out;
}
