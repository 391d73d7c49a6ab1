/**
 * A whole list's items as ranges of their cached bytes (item-cache.ts), kept per frozen items
 * array: the list handler gives every whole list of one store snapshot the same frozen array
 * (handlers/list.ts), so repeated lists of an unchanged collection find their item ranges here
 * instead of looking up each item's bytes again. A frozen array cannot gain, lose or reorder
 * items, and list items of stored objects never change, so the ranges stay exact; the memo is
 * weak, so it lasts as long as the store keeps the snapshot. Other arrays are never kept.
 */
import type { BodyParts } from "./body-parts.js";

const memo = new WeakMap<readonly unknown[], Map<string, BodyParts>>();

/** The item parts of `items` for `encoding` (an encoding and, for protobuf, the list kind). */
export async function itemPartsOf(
  items: readonly unknown[],
  encoding: string,
  make: () => Promise<BodyParts>,
): Promise<BodyParts> {
  if (!Object.isFrozen(items)) return make();
  let byEncoding = memo.get(items);
  const known = byEncoding?.get(encoding);
  if (known !== undefined) return known;
  const parts = await make();
  if (byEncoding === undefined) {
    byEncoding = new Map();
    memo.set(items, byEncoding);
  }
  byEncoding.set(encoding, parts);
  return parts;
}
