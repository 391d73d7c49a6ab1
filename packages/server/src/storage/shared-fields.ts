/**
 * Stored objects share equal managedFields field sets. A fieldsV1 tree is a dozen small objects
 * (one per field, most of them empty), and objects written the same way carry equal trees: at
 * 50,000 ConfigMaps they were a quarter of the live heap. The store keeps one frozen tree per
 * distinct JSON text instead (the same text, so the same key order and bytes on the wire).
 */
import type { FieldSet } from "@kubesdk/models";

/** Distinct trees kept; past this the table starts over (stored objects keep what they share). */
const MAX_SHARED = 4096;
/** Longer texts (a large object's fields) are not kept: the table would hold them twice over. */
const MAX_TEXT = 4096;
const shared = new Map<string, object>();
/** Every tree handed out as a shared one, so a reader can key work on it by identity (isSharedTree). */
const sharedTrees = new WeakSet<object>();

/**
 * Whether `tree` is a shared frozen fieldsV1 tree of the store: it never changes, so what is worked
 * out from it (fieldmanager/entry-sets.ts its FieldSet) can be kept by its identity, not its JSON text.
 */
export function isSharedTree(tree: unknown): boolean {
  return typeof tree === "object" && tree !== null && sharedTrees.has(tree);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Keeps `tree` (a fresh one of our own, as `text` says) as the shared tree of `text`. */
function keepShared(text: string, tree: object): object {
  if (shared.size >= MAX_SHARED) shared.clear();
  deepFreeze(tree);
  sharedTrees.add(tree);
  shared.set(text, tree);
  return tree;
}

function sharedTree(tree: object): object {
  // Frozen trees are shared ones (or someone else's immutable value): nothing to do.
  if (Object.isFrozen(tree)) return tree;
  const text = JSON.stringify(tree);
  if (text.length > MAX_TEXT) return tree;
  // A copy of our own, so freezing it leaves the caller's objects alone.
  return shared.get(text) ?? keepShared(text, JSON.parse(text) as object);
}

/**
 * The store's shared fieldsV1 tree of `set`, found by its JSON text (FieldSet.toFieldsV1Text), so a
 * write whose fields are shaped as earlier ones (the common case) builds no tree of its own and the
 * store, seeing a frozen tree, does not encode it again. A set too large to share gets a fresh tree.
 */
export function sharedFieldsV1(set: FieldSet): Record<string, unknown> {
  const text = set.toFieldsV1Text();
  if (text.length > MAX_TEXT) return set.toFieldsV1();
  return (shared.get(text) ?? keepShared(text, set.toFieldsV1())) as Record<string, unknown>;
}

type Entry = { fieldsV1?: unknown };

/**
 * `managedFields` with every fieldsV1 tree replaced by the shared equal one; the same array when
 * they all are already. New entries and a new array otherwise: the caller's are not changed.
 */
export function shareManagedFields(managedFields: unknown): unknown {
  if (!Array.isArray(managedFields)) return managedFields;
  let out: Entry[] | undefined;
  for (let i = 0; i < managedFields.length; i++) {
    const entry = managedFields[i] as Entry;
    const tree = typeof entry === "object" && entry !== null ? entry.fieldsV1 : undefined;
    if (typeof tree !== "object" || tree === null || Array.isArray(tree)) continue;
    const same = sharedTree(tree);
    if (same === tree) continue;
    out ??= managedFields.slice();
    out[i] = { ...entry, fieldsV1: same };
  }
  return out ?? managedFields;
}
