/**
 * Encoding big list responses without holding the event loop: items are encoded a slice at a time
 * (each slice at most SLICE_MS of work), yielding to other clients between slices, and the slices
 * are joined into exactly the bytes a one-go encoding would give (same Content-Length, same wire).
 * Small lists and YAML take the one-go path.
 */
import { encodeObject } from "@kubesdk/models";
import type { MediaChoice } from "./negotiate.js";
import { encodeBody } from "./respond.js";

/** Lists with more items than this are encoded in slices. */
const SLICED_FROM = 256;
/** Roughly how long one slice may hold the event loop. */
const SLICE_MS = 8;
const SENTINEL = "\u0000kubesdk-list-items\u0000";

const yieldToOthers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function itemsOf(body: unknown): unknown[] | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const items = (body as { items?: unknown }).items;
  return Array.isArray(items) && items.length > SLICED_FROM ? items : undefined;
}

/**
 * The items' JSON texts joined by `sep`, as bytes, a slice at a time: each slice becomes a Buffer
 * before the next yield, since turning a whole 100k-item list text into bytes at once held the event
 * loop for about 100 ms on its own.
 */
async function joinedBytesYielding(
  items: readonly unknown[],
  encode: (item: unknown) => string,
  sep: string,
): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  let pending: string[] = [];
  const flush = () => {
    chunks.push(Buffer.from((chunks.length > 0 ? sep : "") + pending.join(sep)));
    pending = [];
  };
  let sliceStart = performance.now();
  for (const item of items) {
    pending.push(encode(item));
    if (performance.now() - sliceStart >= SLICE_MS) {
      flush();
      await yieldToOthers();
      sliceStart = performance.now();
    }
  }
  if (pending.length > 0) flush();
  return chunks;
}

/** Each list item's compact JSON, kept while the item object lives (see itemBytes below). */
const itemJson = new WeakMap<object, Buffer>();
const COMMA = Buffer.from(",");

/**
 * The items' compact JSON joined by commas: items shown before reuse their bytes, the others are
 * stringified a slice at a time, yielding between slices.
 */
async function compactItemsYielding(items: readonly unknown[]): Promise<Buffer[]> {
  const parts: Buffer[] = [];
  let sliceStart = performance.now();
  for (const item of items) {
    if (parts.length > 0) parts.push(COMMA);
    let bytes = itemJson.get(item as object);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(item));
      if (typeof item === "object" && item !== null) itemJson.set(item, bytes);
      if (performance.now() - sliceStart >= SLICE_MS) {
        await yieldToOthers();
        sliceStart = performance.now();
      }
    }
    parts.push(bytes);
  }
  return parts;
}

async function encodeJsonList(body: object, items: unknown[], pretty: boolean): Promise<Buffer> {
  const outer = pretty
    ? JSON.stringify({ ...body, items: SENTINEL }, null, 2)
    : JSON.stringify({ ...body, items: SENTINEL });
  const at = outer.indexOf(JSON.stringify(SENTINEL));
  const chunks = pretty
    ? await joinedBytesYielding(
        items,
        (item) => JSON.stringify(item, null, 2).replaceAll("\n", "\n    "),
        ",\n    ",
      )
    : await compactItemsYielding(items);
  const tail = outer.slice(at + JSON.stringify(SENTINEL).length);
  const open = pretty ? "[\n    " : "[";
  const close = pretty ? "\n  ]" : "]";
  return Buffer.concat([
    Buffer.from(`${outer.slice(0, at)}${open}`),
    ...chunks,
    Buffer.from(`${close}${tail}\n`),
  ]);
}

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

/**
 * Each list item's protobuf bytes (its field-2 entry, tag included), kept while the item object
 * lives: list items of stored objects are made once per stored object and never change
 * (handlers/list.ts), so a list encodes only the objects it has not shown before. Keyed by the
 * list kind too, since an item's message is the list kind's item type.
 */
const itemBytes = new WeakMap<object, { listKind: string; bytes: Uint8Array }>();

/** Encodes `items` as one list per chunk and remembers each item's bytes (see itemBytes). */
async function encodeMissing(body: object, listKind: string, items: object[]): Promise<void> {
  let chunk = FIRST_CHUNK;
  for (let at = 0; at < items.length; ) {
    const started = performance.now();
    const slice = items.slice(at, at + chunk);
    const raw = rawOf(encodeObject({ ...body, items: slice }));
    const fields = lengthFields(raw).filter(([field]) => field === 2);
    slice.forEach((item, i) => {
      const field = fields[i] as [number, number, number, number];
      itemBytes.set(item, { listKind, bytes: raw.subarray(field[3], field[2]) });
    });
    at += chunk;
    const took = performance.now() - started;
    chunk = Math.max(16, Math.round((chunk * SLICE_MS) / Math.max(took, 0.5)));
    if (at < items.length) await yieldToOthers();
  }
}

/**
 * The whole list: the items not encoded before are encoded a chunk at a time (each chunk as a
 * list of its own: one envelope per chunk, not per item, which cost half again the time of
 * encoding the list at once), then every item's bytes are appended to the empty list's message.
 * Repeated fields concatenate, so the bytes are exactly those of the list encoded at once.
 */
async function encodeProtobufList(body: { kind?: unknown }, items: unknown[]): Promise<Buffer> {
  const listKind = String(body.kind);
  const known = (item: unknown) => itemBytes.get(item as object)?.listKind === listKind;
  await encodeMissing(body, listKind, items.filter((item) => !known(item)) as object[]);
  const empty = encodeObject({ ...body, items: [] });
  const envelope = empty.subarray(MAGIC_LENGTH);
  const itemParts = items.map((item) => (itemBytes.get(item as object) as { bytes: Uint8Array }).bytes);
  const parts: Uint8Array[] = [empty.subarray(0, MAGIC_LENGTH)];
  // One copy of the whole list, in the final concat: the raw field's header is sized up front.
  for (const [field, start, end] of lengthFields(envelope)) {
    const value = envelope.subarray(start, end);
    if (field !== 2) parts.push(lengthHeader(field, value.length), value);
    else {
      const length = itemParts.reduce((sum, item) => sum + item.length, value.length);
      parts.push(lengthHeader(2, length), value, ...itemParts);
    }
  }
  return Buffer.concat(parts);
}

/** encodeBody, in slices for big lists so that other requests are served meanwhile. */
export async function encodeBodyYielding(body: unknown, choice: MediaChoice): Promise<Buffer> {
  const items = itemsOf(body);
  if (!items || choice.encoding === "yaml") return encodeBody(body, choice);
  if (choice.encoding === "protobuf") return encodeProtobufList(body as object, items);
  return encodeJsonList(body as object, items, choice.pretty);
}
