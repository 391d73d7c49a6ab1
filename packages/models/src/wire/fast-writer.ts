/**
 * The hand-written half of the generated protobuf encoders (generated/proto-encode.ts): a growable
 * byte buffer with varints, strings and length prefixes, the JSON value checks of each scalar
 * type (as Go's encoding/json reads them), and the message types whose JSON Go reads by hand.
 */
import { WireError } from "./errors.js";
import { maxWireDepth } from "./fast-reader.js";
import { compareGoStrings } from "./go-string-order.js";
import { int64FromJson } from "./int64.js";
import { describe, isPlainObject, scalarFromJson, wellFormed } from "./scalars.js";

/** Node's Buffer#utf8Write: one native call, no argument checks (Buffer#write adds them). */
interface Utf8Writing {
  utf8Write(text: string, offset: number, length: number): number;
}

export class WireWriter {
  buf: Buffer = Buffer.allocUnsafe(initialSize);
  pos = 0;

  ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  grow(n: number): void {
    let size = Math.max(this.buf.length * 2, this.pos + n);
    // Past the size kept between encodes, go straight to the size the last large encode needed.
    if (size > keptSize && size < largeSize) size = largeSize;
    const grown = Buffer.allocUnsafe(size);
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** A field tag (field number and wire type). */
  tag(tag: number): void {
    if (tag >= 0x80) {
      this.varint(tag);
      return;
    }
    if (this.pos >= this.buf.length) this.grow(1);
    this.buf[this.pos++] = tag;
  }

  /** A length-delimited field: its tag, and one byte kept for its length (see end). */
  field(tag: number): number {
    this.tag(tag);
    return this.begin();
  }

  /** A JSON text (well-formed), length-prefixed, as UTF-8. */
  utf8(text: string): void {
    const most = text.length * 3;
    this.ensure(most + 1);
    const start = this.pos++;
    this.pos += (this.buf as unknown as Utf8Writing).utf8Write(text, this.pos, most);
    this.end(start);
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
/** The buffer size the last encode larger than keptSize grew to. */
let largeSize = 0;
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
  if (w.buf.length > keptSize) {
    largeSize = w.buf.length;
    w.buf = Buffer.allocUnsafe(keptSize);
  }
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

export function wDbl(w: WireWriter, x: unknown): void {
  w.double(typeof x === "number" && Number.isFinite(x) ? x : (scalarFromJson("double", x) as number));
}

export function wI32(w: WireWriter, x: unknown): void {
  w.int32(typeof x === "number" && (x | 0) === x ? x : (scalarFromJson("int32", x) as number));
}

export function wI64(w: WireWriter, x: unknown): void {
  if (typeof x === "number" && Number.isSafeInteger(x)) {
    w.int64(x);
    return;
  }
  const { low, high } = int64FromJson(x, "int64");
  w.int64((BigInt(high >>> 0) << 32n) | BigInt(low >>> 0));
}

// ---- Scalar fields: the tag, then the value; null or undefined is the zero value (Go writes it).

export function fStr(w: WireWriter, tag: number, x: unknown): void {
  w.tag(tag);
  if (typeof x === "string") w.string(x);
  else if (x === null || x === undefined) w.tag(0);
  else scalarFromJson("string", x);
}

export function fBool(w: WireWriter, tag: number, x: unknown): void {
  w.tag(tag);
  if (x === true) w.tag(1);
  else if (x === false || x === null || x === undefined) w.tag(0);
  else scalarFromJson("bool", x);
}

export function fDbl(w: WireWriter, tag: number, x: unknown): void {
  w.tag(tag);
  if (x === null || x === undefined) w.double(0);
  else wDbl(w, x);
}

export function fI32(w: WireWriter, tag: number, x: unknown): void {
  w.tag(tag);
  if (x === null || x === undefined) w.tag(0);
  else wI32(w, x);
}

export function fI64(w: WireWriter, tag: number, x: unknown): void {
  w.tag(tag);
  if (typeof x === "number" && x >= 0 && x <= Number.MAX_SAFE_INTEGER && Math.floor(x) === x) w.varint(x);
  else if (x === null || x === undefined) w.tag(0);
  else wI64(w, x);
}

export function fBytes(w: WireWriter, tag: number, x: unknown): void {
  w.tag(tag);
  w.bytes(x === null || x === undefined ? empty : (scalarFromJson("bytes", x) as Uint8Array));
}

const empty = new Uint8Array(0);

/**
 * A map's entries as Go writes them, keys and values alternating: keys well-formed, deduplicated
 * (the last wins), in Go's string order (UTF-8 byte order, which UTF-16 order matches below U+D800).
 */
export function mapEntries(value: unknown): unknown[] {
  if (!isPlainObject(value)) notAnObject(value);
  const keys = Object.keys(value);
  if (keys.every(belowSurrogates)) {
    // Keys usually come in Go's order already (Go writes maps sorted).
    if (!sorted(keys)) keys.sort();
    const out = new Array<unknown>(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      out[2 * i] = key;
      out[2 * i + 1] = value[key];
    }
    return out;
  }
  const values = new Map<string, unknown>();
  for (const key of keys) values.set(wellFormed(key), value[key]);
  return [...values.entries()].sort(([a], [b]) => compareGoStrings(a, b)).flatMap(([key, v]) => [key, v]);
}

function sorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if ((keys[i - 1] as string) > (keys[i] as string)) return false;
  return true;
}

function belowSurrogates(key: string): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) >= 0xd800) return false;
  return true;
}
