/**
 * A whole list's items as ranges of their cached bytes (item-cache.ts), kept per frozen items
 * array: the list handler gives every whole list of one store snapshot the same frozen array
 * (handlers/list.ts), so repeated lists of an unchanged collection find their item ranges here
 * instead of looking up each item's bytes again. A frozen array cannot gain, lose or reorder
 * items, and list items of stored objects never change, so the ranges stay exact; the memo is
 * weak, so it lasts as long as the store keeps the snapshot. Other arrays are never kept.
 *
 * The whole body of such a list is kept too, with the envelope it was made for (the list's kind,
 * apiVersion and metadata as JSON text): repeated lists of one snapshot have the same envelope, so
 * they skip encoding it again: for protobuf that is an encoding of the envelope (12–50 µs) per list.
 */
import type { BodyParts } from "./body-parts.js";

/** Stands for a list's items in the JSON text of its envelope. */
export const ITEMS_SENTINEL = "\u0000kubesdk-list-items\u0000";

/**
 * The compact JSON text of a list with ITEMS_SENTINEL for its items: what tells two lists'
 * envelopes apart, and the JSON encoding's head and tail around the items.
 */
export function envelopeText(body: object): string {
  return JSON.stringify({ ...body, items: ITEMS_SENTINEL });
}

/** Per frozen items array and encoding: the last parts made, with the envelope they were made for. */
type Memo = WeakMap<readonly unknown[], Map<string, { envelope: string; parts: BodyParts }>>;

const itemParts: Memo = new WeakMap();
const listParts: Memo = new WeakMap();

async function kept(
  memo: Memo,
  items: readonly unknown[],
  encoding: string,
  envelope: string,
  make: () => Promise<BodyParts>,
): Promise<BodyParts> {
  if (!Object.isFrozen(items)) return make();
  let byEncoding = memo.get(items);
  const known = byEncoding?.get(encoding);
  if (known !== undefined && known.envelope === envelope) return known.parts;
  const parts = await make();
  if (byEncoding === undefined) {
    byEncoding = new Map();
    memo.set(items, byEncoding);
  }
  byEncoding.set(encoding, { envelope, parts });
  return parts;
}

/** The item parts of `items` for `encoding` (an encoding and, for protobuf, the list kind). */
export function itemPartsOf(
  items: readonly unknown[],
  encoding: string,
  make: () => Promise<BodyParts>,
): Promise<BodyParts> {
  return kept(itemParts, items, encoding, "", make);
}

/**
 * The whole body of a list of `items` under `envelope` (envelopeText: equal texts are equal
 * envelopes in any encoding) for `encoding`.
 */
export function listPartsOf(
  items: readonly unknown[],
  encoding: string,
  envelope: string,
  make: () => Promise<BodyParts>,
): Promise<BodyParts> {
  return kept(listParts, items, encoding, envelope, make);
}
