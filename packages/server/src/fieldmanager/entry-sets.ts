/**
 * The FieldSet of a managedFields entry, decoded once per distinct fieldsV1 rather than on every
 * write. Objects of one kind mostly carry the same few fieldsV1 shapes (every ConfigMap its
 * creator wrote the same way), so a small cache keyed by the fieldsV1's JSON text hits across
 * objects. A stored object's fieldsV1 is mostly one of the store's shared frozen trees
 * (storage/shared-fields.ts), which never change and are few: those are looked up by identity in a
 * WeakMap, which skips encoding the tree to JSON on every write. (A WeakMap from every fieldsV1 the
 * server encodes, fresh ones included, was tried: the collector's work for its entries cost more
 * than the JSON text it saves.)
 *
 * The sets handed out are shared: callers only read them and combine them (union, difference,
 * intersection return fresh sets); nothing may insert into one.
 */
import { FieldSet } from "@kubesdk/models";
import { isSharedTree } from "../storage/shared-fields.js";

export interface DecodedFields {
  readonly set: FieldSet;
  /**
   * The fieldsV1 is exactly what encoding its set gives (upstream's key order, `.` first), so an
   * entry whose set did not change can keep its fieldsV1 as it is instead of being encoded again.
   */
  readonly canonical: boolean;
}

/** Texts longer than this (a large object's fields) are decoded every time, not kept. */
const MAX_CACHED_TEXT = 4096;
/** Distinct texts kept; past this the oldest is dropped (a Map keeps insertion order). */
const MAX_CACHED_TEXTS = 1024;

const byText = new Map<string, DecodedFields>();
const bySharedTree = new WeakMap<object, DecodedFields>();

/** The set an entry's fieldsV1 names. */
export function entrySet(fieldsV1: unknown): FieldSet {
  return decodeFields(fieldsV1).set;
}

export function decodeFields(fieldsV1: unknown): DecodedFields {
  if (!isSharedTree(fieldsV1)) return decodeText(fieldsV1);
  const tree = fieldsV1 as object;
  let decoded = bySharedTree.get(tree);
  if (decoded === undefined) {
    decoded = decodeText(tree);
    bySharedTree.set(tree, decoded);
  }
  return decoded;
}

function decodeText(fieldsV1: unknown): DecodedFields {
  const text = JSON.stringify(fieldsV1 ?? {});
  const hit = byText.get(text);
  if (hit) return hit;
  const set = FieldSet.fromFieldsV1(fieldsV1);
  const decoded = { set, canonical: set.toFieldsV1Text() === text };
  if (text.length <= MAX_CACHED_TEXT) {
    if (byText.size >= MAX_CACHED_TEXTS) byText.delete(byText.keys().next().value as string);
    byText.set(text, decoded);
  }
  return decoded;
}
