/**
 * Encoding big list responses without holding the event loop: items are encoded a slice at a time
 * (each slice at most SLICE_MS of work), yielding to other clients between slices. The body is a
 * list of byte ranges (body-parts.ts) whose bytes joined are exactly a one-go encoding's (same
 * Content-Length, same wire). Small lists and YAML take the one-go path.
 */
import { type BodyParts, PartRuns } from "./body-parts.js";
import { bytesRecord, cachedBytes, type ItemBytes } from "./item-cache.js";
import { encodeProtobufList } from "./list-encode-protobuf.js";
import { envelopeText, ITEMS_SENTINEL, itemPartsOf, listPartsOf } from "./list-item-parts.js";
import { SLICE_MS, yieldToOthers } from "./list-slices.js";
import type { MediaChoice } from "./negotiate.js";
import { encodeBody } from "./respond.js";

/** Lists with more items than this are encoded in slices. */
const SLICED_FROM = 256;

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

const COMMA = Buffer.from(",");

/** One slab for `texts` (the JSON of `items`, each followed by a comma), and each item's range of it. */
function storeSlab(items: readonly object[], texts: readonly string[]): void {
  const text = `${texts.join(",")},`;
  const slab = Buffer.from(text);
  // Each character is one byte unless the text holds others; only then are lengths counted.
  const oneByte = slab.length === text.length;
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i] as string;
    const length = oneByte ? t.length : Buffer.byteLength(t);
    const record = bytesRecord(items[i] as object);
    record.json = slab;
    record.jsonStart = at;
    record.jsonEnd = at + length;
    at += length + 1;
  }
}

/** Encodes and caches the items' JSON a slice at a time, yielding between slices. */
async function encodeJsonMissing(items: readonly object[]): Promise<void> {
  let texts: string[] = [];
  let pending: object[] = [];
  let sliceStart = performance.now();
  for (const item of items) {
    texts.push(JSON.stringify(item));
    pending.push(item);
    if (performance.now() - sliceStart >= SLICE_MS) {
      storeSlab(pending, texts);
      texts = [];
      pending = [];
      await yieldToOthers();
      sliceStart = performance.now();
    }
  }
  if (texts.length > 0) storeSlab(pending, texts);
}

const isObject = (item: unknown): item is object => typeof item === "object" && item !== null;

/** The items' compact JSON joined by commas, as ranges of the caches (encoding what they lack). */
async function compactItems(items: readonly unknown[], runs: PartRuns): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!isObject(item)) {
      runs.loose(Buffer.from(JSON.stringify(item) ?? "null"));
      continue;
    }
    let cached = cachedBytes(item);
    if (cached?.json === undefined) {
      const rest = items.slice(i).filter((o) => isObject(o) && cachedBytes(o)?.json === undefined);
      await encodeJsonMissing(rest as object[]);
      cached = cachedBytes(item) as ItemBytes;
    }
    runs.item(cached.json as Buffer, cached.jsonStart, cached.jsonEnd);
  }
}

/** The compact items' parts, commas between them (kept for a whole list's frozen items). */
function compactItemParts(items: readonly unknown[]): Promise<BodyParts> {
  return itemPartsOf(items, "json", async () => {
    const runs = new PartRuns(COMMA);
    await compactItems(items, runs);
    return runs.done();
  });
}

async function prettyItemParts(items: readonly unknown[]): Promise<BodyParts> {
  const indented = (item: unknown) => JSON.stringify(item, null, 2).replaceAll("\n", "\n    ");
  return joinedBytesYielding(items, indented, ",\n    ");
}

const QUOTED_SENTINEL = JSON.stringify(ITEMS_SENTINEL);

async function encodeJsonList(body: object, items: unknown[], pretty: boolean): Promise<BodyParts> {
  if (pretty) {
    const outer = JSON.stringify({ ...body, items: ITEMS_SENTINEL }, null, 2);
    return jsonListParts(outer, "[\n    ", await prettyItemParts(items), "\n  ]");
  }
  const outer = envelopeText(body);
  return listPartsOf(items, "json", outer, async () =>
    jsonListParts(outer, "[", await compactItemParts(items), "]"),
  );
}

/** The envelope's text around the items' parts, the items' array brackets included. */
function jsonListParts(outer: string, open: string, itemParts: BodyParts, close: string): BodyParts {
  const at = outer.indexOf(QUOTED_SENTINEL);
  const head = Buffer.from(`${outer.slice(0, at)}${open}`);
  return [head, ...itemParts, Buffer.from(`${close}${outer.slice(at + QUOTED_SENTINEL.length)}\n`)];
}

/** encodeBody, in slices for big lists so that other requests are served meanwhile. */
export async function encodeBodyYielding(body: unknown, choice: MediaChoice): Promise<BodyParts> {
  const items = itemsOf(body);
  if (!items || choice.encoding === "yaml") return [encodeBody(body, choice)];
  if (choice.encoding === "protobuf") return encodeProtobufList(body as object, items);
  return encodeJsonList(body as object, items, choice.pretty);
}
