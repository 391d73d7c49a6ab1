/**
 * Encoding the message types whose JSON Go reads by hand (Time, MicroTime, Duration, IntOrString,
 * Quantity, embedded JSON, the apiextensions schema unions, wrapped lists): the generated encoders
 * (generated/proto-encode.ts) hand their JSON value over here.
 */
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
  w.varint(10);
  w.utf8(jsonText(v));
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
