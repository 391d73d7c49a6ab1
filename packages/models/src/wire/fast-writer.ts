/**
 * The hand-written half of the generated protobuf encoders (generated/proto-encode.ts): a growable
 * byte buffer with varints, strings and length prefixes, the JSON value checks of each scalar
 * type (as Go's encoding/json reads them), and the message types whose JSON Go reads by hand.
 */
import { WireError } from "./errors.js";
import { maxWireDepth } from "./fast-reader.js";
import { parseDuration } from "./go-duration.js";
import { parseTimestamp, type Timestamp } from "./go-time.js";
import { int64FromJson } from "./int64.js";
import { canonicalQuantity } from "./quantity.js";
import { describe, isPlainObject, jsonBytes, scalarFromJson, wellFormed } from "./scalars.js";

export class WireWriter {
  buf: Buffer = Buffer.allocUnsafe(initialSize);
  pos = 0;

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** A non-negative integer below 2^53. */
  varint(value: number): void {
    this.ensure(10);
    const b = this.buf;
    let p = this.pos;
    let v = value;
    while (v > 0x7f) {
      b[p++] = (v & 0x7f) | 0x80;
      v = v >= 0x80000000 ? Math.floor(v / 128) : v >>> 7;
    }
    b[p++] = v;
    this.pos = p;
  }

  /** An int32 (negative values take ten bytes, sign-extended). */
  int32(value: number): void {
    if (value >= 0) this.varint(value);
    else this.int64(BigInt(value));
  }

  int64(value: number | bigint): void {
    if (typeof value === "number" && value >= 0) {
      this.varint(value);
      return;
    }
    let v = BigInt.asUintN(64, BigInt(value));
    this.ensure(10);
    while (v > 0x7fn) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }

  double(value: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /** A string, length-prefixed; lone surrogates are written as U+FFFD, as Go's JSON reads them. */
  string(value: string): void {
    let text = value;
    const n = text.length;
    if (n < 128) {
      this.ensure(n + 1);
      const b = this.buf;
      let p = this.pos + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80) break;
        b[p++] = c;
      }
      if (i === n) {
        b[this.pos] = n;
        this.pos = p;
        return;
      }
    }
    text = wellFormed(text);
    const size = Buffer.byteLength(text, "utf8");
    this.varint(size);
    this.ensure(size);
    this.pos += this.buf.write(text, this.pos, size, "utf8");
  }

  bytes(data: Uint8Array): void {
    this.varint(data.length);
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  /** Starts a length-delimited value: one byte is kept for its length. */
  begin(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Ends the value begun at `start`, moving it when its length needs more than one byte. */
  end(start: number): void {
    const length = this.pos - start - 1;
    if (length < 0x80) {
      this.buf[start] = length;
      return;
    }
    const size = varintSize(length);
    this.ensure(size - 1);
    this.buf.copyWithin(start + size, start + 1, this.pos);
    const end = this.pos + size - 1;
    this.pos = start;
    this.varint(length);
    this.pos = end;
  }

  /** Raw bytes, as they are. */
  raw(data: Uint8Array): void {
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }
}

const initialSize = 4096;
/** The writer buffer kept between encodes stays within this size (a larger one is let go). */
const keptSize = 8 << 20;
let idle: WireWriter | undefined;

/**
 * The writer for one encode: the one kept from the encode before (its buffer already grown to
 * the size objects need, and its hidden class stays alive with it), or a new one while that is in
 * use. Give it back with releaseWriter.
 */
export function takeWriter(): WireWriter {
  const w = idle ?? new WireWriter();
  idle = undefined;
  w.pos = 0;
  return w;
}

export function releaseWriter(w: WireWriter): void {
  if (w.buf.length > keptSize) w.buf = Buffer.allocUnsafe(initialSize);
  idle = w;
}

/** The number of bytes of `value` as a varint (a non-negative integer below 2^53). */
export function varintSize(value: number): number {
  let size = 1;
  for (let v = value; v > 0x7f; v = Math.floor(v / 128)) size++;
  return size;
}

export function tooDeepToEncode(): never {
  throw new WireError("PROTOBUF_DEPTH", `messages nested deeper than ${maxWireDepth} levels`);
}

function fail(reason: string): never {
  throw new WireError("PROTOBUF_VALUE", reason);
}

/** The object of a message, or a PROTOBUF_VALUE error. */
export function notAnObject(value: unknown): never {
  fail(`expected an object, got ${describe(value)}`);
}

export function notAnArray(value: unknown): never {
  fail(`expected an array, got ${describe(value)}`);
}

// ---- Scalars: each writes a JSON value (not null) of its type, or throws what Go's decoding says.

export function wStr(w: WireWriter, x: unknown): void {
  if (typeof x === "string") w.string(x);
  else scalarFromJson("string", x);
}

export function wBool(w: WireWriter, x: unknown): void {
  if (typeof x === "boolean") w.varint(x ? 1 : 0);
  else scalarFromJson("bool", x);
}

export function wDbl(w: WireWriter, x: unknown): void {
  w.double(scalarFromJson("double", x) as number);
}

export function wI32(w: WireWriter, x: unknown): void {
  w.int32(scalarFromJson("int32", x) as number);
}

export function wI64(w: WireWriter, x: unknown): void {
  if (typeof x === "number" && Number.isSafeInteger(x)) {
    w.int64(x);
    return;
  }
  const { low, high } = int64FromJson(x, "int64");
  w.int64((BigInt(high >>> 0) << 32n) | BigInt(low >>> 0));
}

export function wBytes(w: WireWriter, x: unknown): void {
  w.bytes(scalarFromJson("bytes", x) as Uint8Array);
}

/** A map's keys as Go writes them: well-formed, deduplicated (the last wins), in Go's string order. */
export function mapEntries(value: unknown): [string, unknown][] {
  if (!isPlainObject(value)) notAnObject(value);
  const keys = Object.keys(value);
  if (!keys.some((k) => /[\ud800-\uffff]/.test(k))) {
    keys.sort();
    return keys.map((k) => [k, value[k]]);
  }
  const values = new Map<string, unknown>();
  for (const key of keys) values.set(wellFormed(key), value[key]);
  return [...values.entries()].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

// ---- Message types with their own JSON form: `v` is the JSON value, null for the zero value.

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
  w.bytes(jsonBytes(v));
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
