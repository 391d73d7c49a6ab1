/**
 * The hand-written half of the generated protobuf decoders (generated/proto-decode.ts): reading
 * varints, strings and bytes straight from the wire, Go's rules for strings (one U+FFFD per byte
 * that does not start valid UTF-8), int64 values, map entries, merges and error paths. The message
 * types whose JSON Go writes by hand are decoded in fast-special.ts.
 */

import { setMember } from "../own-member.js";
import { WireError, within } from "./errors.js";
import { goUtf8 } from "./go-utf8.js";
import { type Int64Mode, int64ToJson } from "./int64.js";

/**
 * How deeply messages may nest, counting those of embedded objects (a ControllerRevision holding
 * a ControllerRevision ...) too: deep enough for any real object, shallow enough that the
 * recursive walks stay far from the stack limit.
 */
export const maxWireDepth = 512;

/** The bytes being decoded and the read position; one per decode. */
export class WireReader {
  readonly b: Buffer;
  p: number;
  readonly int64: Int64Mode;
  constructor(bytes: Uint8Array, int64: Int64Mode) {
    this.b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.p = 0;
    this.int64 = int64;
  }
}

/** A reader over no bytes: decoding a message from it gives the message's zero value. */
export const emptyReader = new WireReader(new Uint8Array(0), "number");

/**
 * A generated message decoder: the message's bytes from r.p to `end`, as its JSON value. A struct's
 * fields go into `into` when given (an inlined struct's into its parent's object), else into a new
 * object, which starts with `apiVersion` and `kind` when given (a top-level object).
 */
export type Decoder = (
  r: WireReader,
  end: number,
  depth: number,
  // biome-ignore lint/suspicious/noExplicitAny: decoded JSON values
  into?: any,
  apiVersion?: string,
  kind?: string,
  // biome-ignore lint/suspicious/noExplicitAny: decoded JSON values
) => any;

export function malformed(reason: string): WireError {
  return new WireError("PROTOBUF_MESSAGE", reason);
}

function truncated(): never {
  throw malformed("truncated: a value runs past the end of the bytes");
}

/** A message whose Go type writes custom JSON the codec does not know; no built-in kind holds one. */
export function unsupported(name: string): never {
  throw new WireError("PROTOBUF_VALUE", `${name} has a custom JSON form the codec does not support`);
}

export function tooDeep(): never {
  throw new WireError("PROTOBUF_DEPTH", `messages nested deeper than ${maxWireDepth} levels`);
}

export function wrongType(tag: number, expected: number): never {
  throw malformed(`wrong wire type ${tag & 7} (expected ${expected})`);
}

export function runsPast(): never {
  throw malformed("a value runs past the end of its message");
}

/** A varint's low 32 bits, unsigned (tags, lengths, uint32). */
export function u32(r: WireReader): number {
  const b = r.b;
  let p = r.p;
  if (p >= b.length) truncated();
  let c = b[p++] as number;
  if (c < 0x80) {
    r.p = p;
    return c;
  }
  let x = c & 0x7f;
  for (let shift = 7; shift < 70; shift += 7) {
    if (p >= b.length) truncated();
    c = b[p++] as number;
    if (shift < 32) x |= (c & 0x7f) << shift;
    if (c < 0x80) {
      r.p = p;
      return x >>> 0;
    }
  }
  throw malformed("a varint is longer than 10 bytes");
}

/** A field tag; field number 0 is invalid. */
export function tagOf(r: WireReader): number {
  const tag = u32(r);
  if (tag >>> 3 === 0) throw malformed("illegal tag 0");
  return tag;
}

export function i32(r: WireReader): number {
  return u32(r) | 0;
}

export function bool(r: WireReader): boolean {
  return u32(r) !== 0;
}

/** An int64 exactly: a number within ±(2^53 − 1), else a bigint. */
export function i64(r: WireReader): number | bigint {
  const b = r.b;
  let p = r.p;
  let x = 0;
  let mul = 1;
  for (let i = 0; i < 7; i++) {
    if (p >= b.length) truncated();
    const c = b[p++] as number;
    x += (c & 0x7f) * mul;
    if (c < 0x80) {
      r.p = p;
      return x;
    }
    mul *= 128;
  }
  return i64Slow(r);
}

function i64Slow(r: WireReader): number | bigint {
  const b = r.b;
  let p = r.p;
  let x = 0n;
  for (let shift = 0n; shift < 70n; shift += 7n) {
    if (p >= b.length) truncated();
    const c = b[p++] as number;
    x |= BigInt(c & 0x7f) << shift;
    if (c < 0x80) {
      r.p = p;
      const v = BigInt.asIntN(64, x);
      return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
    }
  }
  throw malformed("a varint is longer than 10 bytes");
}

/** An int64 in its JSON form under the reader's int64 mode. */
export function i64j(r: WireReader): number | bigint | string {
  const v = i64(r);
  return typeof v === "number" ? v : int64ToJson(v, r.int64);
}

export function dbl(r: WireReader): number {
  if (r.p + 8 > r.b.length) truncated();
  const v = r.b.readDoubleLE(r.p);
  r.p += 8;
  return v;
}

function pastEnd(): never {
  throw malformed("a length-delimited value runs past the end of its message");
}

/** Reads a length prefix; returns where the value ends, which must lie within `end`. */
export function len(r: WireReader, end: number): number {
  // A length under 128 is one byte, read here: the call to u32 costs most before V8 optimizes.
  const p = r.p;
  let e: number;
  if (p < end && (r.b[p] as number) < 0x80) {
    e = p + 1 + (r.b[p] as number);
    r.p = p + 1;
  } else {
    const n = u32(r);
    e = r.p + n;
  }
  if (e > end) pastEnd();
  return e;
}

/** Node's Buffer slicing methods: one native call, no argument checks (Buffer#toString adds them). */
interface Slicing {
  utf8Slice(start: number, end: number): string;
  base64Slice(start: number, end: number): string;
}

const cacheSize = 4096;
/** Short ASCII strings seen before, one per slot (statuses, reasons, names repeat a lot). */
const stringCache: string[] = new Array(cacheSize).fill("");
const replacementChar = "\ufffd";

/** A string field, read as Go's JSON writes its bytes. */
export function str(r: WireReader, end: number): string {
  const b = r.b;
  let s = r.p;
  let e: number;
  // len's one-byte case, written out: most strings are short, and calls cost before V8 optimizes.
  if (s < end && (b[s] as number) < 0x80) {
    e = s + 1 + (b[s] as number);
    s++;
    if (e > end) pastEnd();
  } else {
    e = len(r, end);
    s = r.p;
  }
  r.p = e;
  const n = e - s;
  if (n <= 24) {
    if (n === 0) return "";
    // The slot comes from a few bytes; comparing with the cached string (ASCII) checks them all.
    const h = Math.imul(n ^ ((b[s] as number) << 8) ^ ((b[e - 1] as number) << 16), 0x9e3779b1);
    const slot = (h ^ ((b[s + (n >> 1)] as number) << 3)) >>> 20;
    const cached = stringCache[slot] as string;
    if (cached.length === n) {
      let i = 0;
      while (i < n && cached.charCodeAt(i) === b[s + i]) i++;
      if (i === n) return cached;
    }
    const text = (b as unknown as Slicing).utf8Slice(s, e);
    // As many characters as bytes and no U+FFFD: every byte was ASCII.
    if (text.length === n && text.indexOf(replacementChar) === -1) {
      stringCache[slot] = text;
      return text;
    }
    return text.indexOf(replacementChar) === -1 ? text : goUtf8(b.subarray(s, e));
  }
  // Buffer replaces each invalid sequence with one U+FFFD (Go: one per byte): without any, the
  // bytes were valid UTF-8 and both read them alike.
  const text = (b as unknown as Slicing).utf8Slice(s, e);
  return text.indexOf(replacementChar) === -1 ? text : goUtf8(b.subarray(s, e));
}

/** A bytes field holding JSON text, as a string (invalid UTF-8 replaced as Buffer#toString does). */
export function utf8(r: WireReader, end: number): string {
  const e = len(r, end);
  const s = r.p;
  r.p = e;
  return (r.b as unknown as Slicing).utf8Slice(s, e);
}

/** A bytes field as Go's JSON writes []byte: standard base64. */
export function b64(r: WireReader, end: number): string {
  const e = len(r, end);
  const s = r.p;
  r.p = e;
  return (r.b as unknown as Slicing).base64Slice(s, e);
}

/** A bytes field's own bytes (a view, not a copy). */
export function raw(r: WireReader, end: number): Uint8Array {
  const e = len(r, end);
  const s = r.p;
  r.p = e;
  return r.b.subarray(s, e);
}

/** Skips an unknown field. */
export function skip(r: WireReader, tag: number, end: number): void {
  switch (tag & 7) {
    case 0:
      u32(r);
      break;
    case 1:
      r.p += 8;
      break;
    case 2:
      r.p = len(r, end);
      break;
    case 5:
      r.p += 4;
      break;
    default:
      throw malformed(`unsupported wire type ${tag & 7}`);
  }
  if (r.p > end) runsPast();
}

/** The merge of a singular message field's occurrences: their payloads, concatenated. */
export function concatReader(parts: Uint8Array[], int64: Int64Mode): WireReader {
  return new WireReader(Buffer.concat(parts), int64);
}

/** A scalar map value reader (str, b64, bool, ...). */
type ValueReader = (r: WireReader, end: number) => unknown;

/** The key of the entry scanEntry read last (single-threaded: read it before the next scan). */
let entryKey = "";

/**
 * Reads one map entry (key 1, value 2) to its end: its key into `entryKey`, and answers where its
 * value starts, the last one when given twice, or -1 when it has none. The value is decoded after
 * the scan, so that its errors can name the key wherever the key stands in the entry.
 */
function scanEntry(r: WireReader, e: number, valueTag: number): number {
  entryKey = "";
  let at = -1;
  while (r.p < e) {
    const t = tagOf(r);
    if (t === 10) entryKey = str(r, e);
    else if (t === valueTag) {
      at = r.p;
      skip(r, t, e);
    } else if (t >>> 3 === 1) wrongType(t, 2);
    else if (t >>> 3 === 2) wrongType(t, valueTag & 7);
    else skip(r, t, e);
  }
  if (r.p !== e) throw malformed("a map entry runs past its end");
  return at;
}

/**
 * Decodes the value of the entry at `at` with `read` (a message value with `decode` one level
 * deeper than `depth`), naming the entry's key in its errors; leaves `r` at the entry's end `e`.
 */
function valueAt(
  r: WireReader,
  at: number,
  e: number,
  read: (r: WireReader, end: number, decode: Decoder, depth: number) => unknown,
  decode: Decoder,
  depth: number,
): unknown {
  const key = entryKey;
  r.p = at;
  try {
    return read(r, e, decode, depth);
  } catch (error) {
    throw within(error, `[${key}]`);
  } finally {
    r.p = e;
  }
}

/** The decoder argument of a scalar value's read, which takes none. */
const noDecoder: Decoder = () => undefined;

const readMessage = (r: WireReader, e: number, decode: Decoder, depth: number) =>
  decode(r, len(r, e), depth + 1);

/**
 * Reads one map entry into `map`; an entry without its value holds `zero`, one given twice keeps
 * the last. Errors of the value name its key.
 */
export function entry(
  r: WireReader,
  end: number,
  map: Record<string, unknown> | undefined,
  valueTag: number,
  read: ValueReader,
  zero: unknown,
): Record<string, unknown> {
  const e = len(r, end);
  const start = r.p;
  // The layout every encoder writes (the key, then the value, each once) is read straight through;
  // anything else, or anything that fails, is read again by the scan, which decides what it means.
  if (r.b[start] === 10) {
    try {
      r.p = start + 1;
      const key = str(r, e);
      if (r.p < e && r.b[r.p] === valueTag) {
        r.p++;
        const value = read(r, e);
        if (r.p === e) {
          const out = map ?? {};
          if (key !== "__proto__") out[key] = value;
          else setMember(out, key, value);
          return out;
        }
      }
    } catch {
      // Read again below.
    }
    r.p = start;
  }
  const at = scanEntry(r, e, valueTag);
  const key = entryKey;
  const value = at < 0 ? zero : valueAt(r, at, e, read, noDecoder, 0);
  const out = map ?? {};
  setMember(out, key, value);
  return out;
}

/** Like entry, for message values decoded by `decode` one level deeper than `depth`. */
export function msgEntry(r: WireReader, end: number, map: unknown, decode: Decoder, depth: number): unknown {
  const e = len(r, end);
  const at = scanEntry(r, e, 18);
  const key = entryKey;
  const value = at < 0 ? decode(emptyReader, 0, depth + 1) : valueAt(r, at, e, readMessage, decode, depth);
  const out = (map ?? {}) as Record<string, unknown>;
  setMember(out, key, value);
  return out;
}

/** Puts the field path of a failed field (and element) in front of an error's. */
export function withinField(
  error: unknown,
  tag: number,
  at: string | number,
  paths: Readonly<Record<number, string>>,
): unknown {
  const segment = paths[tag >>> 3];
  if (segment === undefined) return error;
  return within(error, at === -1 ? segment : `${segment}[${at}]`);
}
