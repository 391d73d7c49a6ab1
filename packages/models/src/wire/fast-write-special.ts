/**
 * Encoding the message types whose JSON Go reads by hand (Time, MicroTime, Duration, IntOrString,
 * Quantity, embedded JSON, the apiextensions schema unions, wrapped lists): the generated encoders
 * (generated/proto-encode.ts) hand their JSON value over here.
 */

import { isArrayIndexKey } from "./embedded-json.js";
import { WireError } from "./errors.js";
import { type WireWriter, wI64 } from "./fast-writer.js";
import { parseDuration } from "./go-duration.js";
import { parseTimestamp, type Timestamp } from "./go-time.js";
import { canonicalQuantity } from "./quantity.js";
import { describe, isPlainObject, jsonText, scalarFromJson, wellFormed } from "./scalars.js";

function fail(reason: string): never {
  throw new WireError("PROTOBUF_VALUE", reason);
}

// `v` is the JSON value, null for the zero value.

type Encoder = (w: WireWriter, value: unknown, depth: number) => void;
const goZeroTimeSeconds = -62135596800;
/** Parsed times by their text (objects repeat a few timestamps many times). */
const times = new Map<string, Timestamp>();
const microTimes = new Map<string, Timestamp>();

export function encTime(w: WireWriter, v: unknown, micro: boolean): void {
  if (v === null) return; // Go writes the zero time as an empty message
  if (typeof v !== "string") fail(`expected an RFC 3339 time, got ${describe(v)}`);
  const cache = micro ? microTimes : times;
  let ts = cache.get(v);
  if (ts === undefined) {
    ts = parseTimestamp(v, micro);
    if (cache.size >= 4096) cache.clear();
    cache.set(v, ts);
  }
  if (ts.seconds === goZeroTimeSeconds && ts.nanos === 0) return;
  // Go writes a Time's seconds only (its nanos field as 0), a MicroTime's microseconds too.
  w.varint(8);
  w.int64(ts.seconds);
  w.varint(16);
  w.int32(micro ? ts.nanos : 0);
}

export function encDuration(w: WireWriter, v: unknown): void {
  if (v !== null && typeof v !== "string") fail(`expected a duration string, got ${describe(v)}`);
  w.varint(8);
  wI64(w, v === null ? 0 : parseDuration(v));
}

export function encIntOrString(w: WireWriter, v: unknown): void {
  if (typeof v === "string") {
    w.varint(8);
    w.varint(1);
    w.varint(16);
    w.varint(0);
    w.varint(26);
    w.string(wellFormed(v));
    return;
  }
  if (v !== null && typeof v !== "number") fail(`expected an integer or a string, got ${describe(v)}`);
  const int = v === null ? 0 : (scalarFromJson("int32", v) as number);
  w.varint(8);
  w.varint(0);
  w.varint(16);
  w.int32(int);
  w.varint(26);
  w.varint(0);
}

/** Go's strings.TrimSpace: Unicode white space at both ends. */
function trimSpace(text: string): string {
  return text.replace(
    /^[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g,
    "",
  );
}

const quantities = new Map<string, string>();

export function encQuantity(w: WireWriter, v: unknown): void {
  // Go also accepts a bare JSON number for a quantity, and trims white space.
  const text = v === null ? "0" : typeof v === "number" ? String(v) : v;
  if (typeof text !== "string") fail(`expected a quantity such as "100m" or "1Gi", got ${describe(v)}`);
  let canonical = quantities.get(text);
  if (canonical === undefined) {
    canonical = canonicalQuantity(trimSpace(text));
    if (quantities.size >= 4096) quantities.clear();
    quantities.set(text, canonical);
  }
  w.varint(10);
  w.string(canonical);
}

/** FieldsV1, RawExtension, apiextensions JSON: the value as JSON bytes in field 1. */
export function encEmbedded(w: WireWriter, v: unknown): void {
  if (v === null) return;
  w.tag(10);
  const start = w.begin();
  if (objectTree(w, v, 0)) w.end(start);
  else {
    w.pos = start;
    w.utf8(jsonText(v));
  }
}

/**
 * Writes a tree of plain objects with ASCII keys (a FieldsV1 is one) as the JSON text jsonText
 * gives, straight into the buffer; false for anything else (the caller then rewinds and uses
 * jsonText): other values, non-ASCII or control characters, <, > or & in a key, a toJSON method,
 * keys JavaScript may have reordered.
 */
function objectTree(w: WireWriter, v: unknown, depth: number): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v) || depth > 64) return false;
  if (typeof (v as { toJSON?: unknown }).toJSON === "function") return false;
  const keys = Object.keys(v);
  // Index-like keys: JavaScript may have moved them to the front; jsonText writes Go's order.
  if (keys.length > 1 && isArrayIndexKey(keys[0] as string)) return false;
  w.tag(0x7b); // {
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) w.tag(0x2c); // ,
    if (!plainKey(w, keys[i] as string)) return false;
    w.tag(0x3a); // :
    if (!objectTree(w, (v as Record<string, unknown>)[keys[i] as string], depth + 1)) return false;
  }
  w.tag(0x7d); // }
  return true;
}

/** A key in quotes, `"` and `\` escaped; false when it holds anything else to escape. */
function plainKey(w: WireWriter, key: string): boolean {
  w.ensure(2 * key.length + 2);
  const b = w.buf;
  let p = w.pos;
  b[p++] = 0x22;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x20 || c >= 0x80 || c === 0x3c || c === 0x3e || c === 0x26) return false;
    if (c === 0x22 || c === 0x5c) b[p++] = 0x5c;
    b[p++] = c;
  }
  b[p++] = 0x22;
  w.pos = p;
  return true;
}

function schemaAt(w: WireWriter, tag: number, v: unknown, depth: number, schema: Encoder): void {
  w.varint(tag);
  const start = w.begin();
  schema(w, v, depth + 1);
  w.end(start);
}

export function encOrBool(w: WireWriter, v: unknown, depth: number, schema: Encoder): void {
  if (v === null || typeof v === "boolean") {
    w.varint(8);
    w.varint(v === true ? 1 : 0);
    return;
  }
  if (!isPlainObject(v)) fail(`expected a boolean or a JSON schema, got ${describe(v)}`);
  w.varint(8);
  w.varint(1);
  schemaAt(w, 18, v, depth, schema);
}

export function encOrArray(w: WireWriter, v: unknown, depth: number, schema: Encoder): void {
  if (v === null) return;
  if (Array.isArray(v)) {
    for (const s of v) schemaAt(w, 18, s, depth, schema);
    return;
  }
  if (!isPlainObject(v)) fail(`expected a JSON schema or a list of them, got ${describe(v)}`);
  schemaAt(w, 10, v, depth, schema);
}

export function encOrStringArray(w: WireWriter, v: unknown, depth: number, schema: Encoder): void {
  if (v === null) return;
  if (Array.isArray(v)) {
    const strings = v.map((s) => scalarFromJson("string", s) as string);
    for (const s of strings) {
      w.varint(18);
      w.string(s);
    }
    return;
  }
  if (!isPlainObject(v)) fail(`expected a JSON schema or a list of strings, got ${describe(v)}`);
  schemaAt(w, 10, v, depth, schema);
}

/** ExtraValue, Verbs, ...: a bare JSON array of strings in `repeated string items = 1`. */
export function encList(w: WireWriter, v: unknown): void {
  if (v === null) return;
  if (!Array.isArray(v)) fail(`expected an array of strings, got ${describe(v)}`);
  const strings = v.map((s) => scalarFromJson("string", s) as string);
  for (const s of strings) {
    w.varint(10);
    w.string(s);
  }
}
