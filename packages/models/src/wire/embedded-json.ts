/**
 * JSON text for values embedded in messages (RawExtension, apiextensions JSON), in Go's key order
 * where JavaScript lost the original one.
 *
 * A JavaScript object lists keys that look like array indices ("0", "7", "42") first, in numeric
 * order, whatever order they were parsed in. So `{"b":1,"7":2}` comes back from JSON.parse as
 * `{"7":2,"b":1}`, and writing it again changes the embedded bytes. The original order is gone; the
 * order Go's encoding/json gives a map (keys sorted bytewise) is the one that rebuilds what Go itself
 * wrote, so such objects are written in it. Objects without index-like keys keep their own order.
 * See docs/wire-codec.md, "Other JSON Go accepts or rejects".
 */
import { compareGoStrings } from "./go-string-order.js";

/** Whether `key` is one JavaScript lists first: a canonical integer from 0 to 2^32 − 2. */
export function isArrayIndexKey(key: string): boolean {
  const n = key.length;
  if (n === 0 || n > 10) return false;
  const first = key.charCodeAt(0);
  if (first < 0x30 || first > 0x39 || (first === 0x30 && n > 1)) return false;
  for (let i = 1; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return n < 10 || Number(key) < 2 ** 32 - 1;
}

/** Whether JavaScript may have reordered this object's keys (they come first, so one look is enough). */
export function mayBeReordered(object: object): boolean {
  let count = 0;
  let first: string | undefined;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    if (count === 0) first = key;
    if (++count > 1) break;
  }
  return count > 1 && isArrayIndexKey(first as string);
}

/** Whether any object in `value` may have been reordered. */
export function holdsReorderedObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsReorderedObject);
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  return mayBeReordered(value) || Object.values(value).some(holdsReorderedObject);
}

/**
 * JSON.stringify, except that objects JavaScript may have reordered are written with their keys
 * sorted as Go sorts map keys. Only called when holdsReorderedObject found one.
 */
export function goOrderedJson(value: unknown, key = ""): string | undefined {
  let v = value;
  if (typeof v === "object" && v !== null && typeof (v as { toJSON?: unknown }).toJSON === "function") {
    v = (v as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (typeof v !== "object" || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) {
    return `[${v.map((item, i) => goOrderedJson(item, String(i)) ?? "null").join(",")}]`;
  }
  const keys = Object.keys(v);
  if (mayBeReordered(v)) keys.sort(compareGoStrings);
  const parts: string[] = [];
  for (const k of keys) {
    const text = goOrderedJson((v as Record<string, unknown>)[k], k);
    if (text !== undefined) parts.push(`${JSON.stringify(k)}:${text}`);
  }
  return `{${parts.join(",")}}`;
}
