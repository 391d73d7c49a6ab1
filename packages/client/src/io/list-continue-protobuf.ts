/**
 * The continue token of a protobuf list read from its first bytes, before the body is decoded (the
 * protobuf counterpart of list-continue.ts). The body is "k8s\0" + runtime.Unknown, whose field 1
 * (typeMeta) comes before field 2 (raw: the list's own message); in that message field 1 is the
 * ListMeta, whose field 3 is `continue`. The API server writes fields in number order, so the token
 * lies within the first few hundred bytes. Anything unexpected gives up (undefined) and the token
 * is then taken from the decoded list.
 */

const MAGIC = [0x6b, 0x38, 0x73, 0x00] as const;
// Wire types of a field tag's low three bits.
const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A tiny cursor over the body; `p` is -1 once anything is malformed or cut short. */
interface Cursor {
  readonly b: Uint8Array;
  p: number;
}

/** The varint at the cursor (up to 2^35, enough for tags and lengths of a list body), or -1. */
function varint(c: Cursor, end: number): number {
  let value = 0;
  let scale = 1;
  for (let k = 0; k < 5 && c.p < end; k++) {
    const byte = c.b[c.p++] as number;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 128;
  }
  c.p = -1;
  return -1;
}

/**
 * Moves the cursor to the start of the length-delimited field `field` of the message ending at
 * `end` and returns the field's end; -1 when it is absent, malformed or (unless `mayRunOn`: the
 * bytes are only the body's first ones) not within `end`.
 */
function seekField(c: Cursor, end: number, field: number, mayRunOn = false): number {
  while (c.p >= 0 && c.p < end) {
    const tag = varint(c, end);
    if (tag < 0) return -1;
    const type = tag % 8;
    if (type === LEN) {
      const length = varint(c, end);
      if (length < 0) return -1;
      if (Math.floor(tag / 8) === field) return c.p + length <= end || mayRunOn ? c.p + length : -1;
      c.p += length;
    } else if (type === VARINT) varint(c, end);
    else if (type === I64) c.p += 8;
    else if (type === I32) c.p += 4;
    else return -1;
  }
  return -1;
}

/**
 * `metadata.continue` of a protobuf list body from its leading bytes (the whole body or only its
 * start: the list's message may run on past them, its ListMeta may not); else undefined.
 */
export function earlyProtobufContinueToken(body: Uint8Array): string | undefined {
  if (body.length < MAGIC.length) return undefined;
  for (let k = 0; k < MAGIC.length; k++) if (body[k] !== MAGIC[k]) return undefined;
  const c: Cursor = { b: body, p: MAGIC.length };
  const rawEnd = seekField(c, body.length, 2, true);
  if (rawEnd < 0) return undefined;
  const metaEnd = seekField(c, Math.min(rawEnd, body.length), 1);
  if (metaEnd < 0) return undefined;
  const tokenEnd = seekField(c, metaEnd, 3);
  if (tokenEnd < 0 || tokenEnd === c.p) return undefined;
  try {
    return utf8.decode(body.subarray(c.p, tokenEnd));
  } catch {
    return undefined;
  }
}
