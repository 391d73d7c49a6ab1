/**
 * Big protobuf lists (see list-encode.ts): each item's bytes are cached once, and a list is its
 * envelope around the ranges of those caches (body-parts.ts), never joined into one buffer.
 */
import { encodeObject } from "@kubesdk/models";
import { type BodyParts, bodyLength, PartRuns } from "./body-parts.js";
import { bytesRecord, cachedBytes, type ItemBytes } from "./item-cache.js";
import { envelopeText, itemPartsOf, listPartsOf } from "./list-item-parts.js";
import { SLICE_MS, yieldToOthers } from "./list-slices.js";

/**
 * [field number, start, end of the value, start of the field's tag] of each length-delimited
 * field of a message.
 */
function lengthFields(bytes: Uint8Array): Array<[number, number, number, number]> {
  const fields: Array<[number, number, number, number]> = [];
  let i = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[i++] as number;
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
      shift += 7;
    }
  };
  while (i < bytes.length) {
    const tagAt = i;
    const tag = varint();
    if ((tag & 7) !== 2) throw new Error("unexpected wire type in a protobuf envelope");
    const length = varint();
    fields.push([tag >>> 3, i, i + length, tagAt]);
    i += length;
  }
  return fields;
}

/** The tag and length of a length-delimited field of `length` bytes. */
function lengthHeader(field: number, length: number): Buffer {
  const head: number[] = [(field << 3) | 2];
  let n = length;
  while (n >= 0x80) {
    head.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  head.push(n);
  return Buffer.from(head);
}

const MAGIC_LENGTH = 4;

/** The raw message inside an enveloped object ("k8s\0" + Unknown{typeMeta, raw, …}). */
function rawOf(enveloped: Uint8Array): Uint8Array {
  const body = enveloped.subarray(MAGIC_LENGTH);
  const raw = lengthFields(body).find(([field]) => field === 2);
  return raw ? body.subarray(raw[1], raw[2]) : new Uint8Array(0);
}

/** Items per protobuf chunk at first; later chunks are sized from the time the last one took. */
const FIRST_CHUNK = 128;

/** Encodes `items` as one list per chunk and caches each item's bytes (item-cache.ts). */
async function encodeMissing(body: object, listKind: string, items: object[]): Promise<void> {
  let chunk = FIRST_CHUNK;
  for (let at = 0; at < items.length; ) {
    const started = performance.now();
    const slice = items.slice(at, at + chunk);
    const raw = rawOf(encodeObject({ ...body, items: slice }));
    const fields = lengthFields(raw).filter(([field]) => field === 2);
    slice.forEach((item, i) => {
      const field = fields[i] as [number, number, number, number];
      const record = bytesRecord(item);
      record.protobuf = raw;
      record.protobufStart = field[3];
      record.protobufEnd = field[2];
      record.protobufKind = listKind;
    });
    at += chunk;
    const took = performance.now() - started;
    chunk = Math.max(16, Math.round((chunk * SLICE_MS) / Math.max(took, 0.5)));
    if (at < items.length) await yieldToOthers();
  }
}

const NO_SEPARATOR = Buffer.alloc(0);

/** Each item's cached bytes, in order, encoding (and caching) first the items not encoded before. */
async function itemRanges(body: object, listKind: string, items: readonly unknown[]): Promise<Buffer[]> {
  const runs = new PartRuns(NO_SEPARATOR);
  const known = (item: unknown) => cachedBytes(item as object)?.protobufKind === listKind;
  for (let i = 0; i < items.length; i++) {
    let cached = cachedBytes(items[i] as object);
    if (cached?.protobufKind !== listKind) {
      await encodeMissing(body, listKind, items.slice(i).filter((item) => !known(item)) as object[]);
      cached = cachedBytes(items[i] as object) as ItemBytes;
    }
    runs.item(cached.protobuf as Uint8Array, cached.protobufStart, cached.protobufEnd);
  }
  return runs.done();
}

/**
 * The whole list: the items not encoded before are encoded a chunk at a time (each chunk as a
 * list of its own: one envelope per chunk, not per item, which cost half again the time of
 * encoding the list at once), then every item's bytes follow the empty list's message, as ranges
 * of the caches. Repeated fields concatenate, so the bytes are exactly those of the list encoded
 * at once; the raw field's header is sized from the items' lengths.
 */
export function encodeProtobufList(body: { kind?: unknown }, items: unknown[]): Promise<BodyParts> {
  const encoding = `protobuf ${String(body.kind)}`;
  return listPartsOf(items, encoding, envelopeText(body), () => protobufListParts(body, encoding, items));
}

async function protobufListParts(
  body: { kind?: unknown },
  encoding: string,
  items: unknown[],
): Promise<BodyParts> {
  const listKind = String(body.kind);
  const itemParts = await itemPartsOf(items, encoding, () => itemRanges(body, listKind, items));
  const empty = Buffer.from(encodeObject({ ...body, items: [] }));
  const envelope = empty.subarray(MAGIC_LENGTH);
  const parts: Buffer[] = [empty.subarray(0, MAGIC_LENGTH)];
  for (const [field, start, end] of lengthFields(envelope)) {
    const value = envelope.subarray(start, end);
    if (field !== 2) parts.push(lengthHeader(field, value.length), value);
    else {
      parts.push(lengthHeader(2, value.length + bodyLength(itemParts)), value);
      for (const part of itemParts) parts.push(part);
    }
  }
  return parts;
}
