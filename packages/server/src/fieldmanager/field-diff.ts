/**
 * What an update changed, for its managedFields: the fields whose value it changed or added, the
 * fields it removed, and every field the new object has. Each object is walked once into a trie of
 * its fields holding their values, and the two tries are compared node by node, so no path is
 * joined into a string and split again and no value is turned into JSON unless two leaves differ
 * in a way only JSON can tell (`null` and `NaN`, say).
 *
 * It answers what comparing two LeafMaps (object-fields.ts `leafFields`: path → JSON of the value)
 * answers, leaf for leaf: a leaf is changed when its JSON text differs from the old one's (a missing
 * old leaf counting as no text), removed when only the old object has it.
 * packages/server/test/field-diff.test.ts checks the two against each other.
 */
import { FieldSet, type TypeNode } from "@kubesdk/models";
import { type FieldScope, type FieldSink, walkFields } from "./object-fields.js";

/** A map or struct node that counts as a field itself (object-fields.ts `PRESENT`). */
const PRESENT = Symbol("present");
/** A node on the way to fields that is no field itself. */
const NONE = Symbol("none");

interface LeafNode {
  value: unknown;
  children: Map<string, LeafNode> | undefined;
}

function leafTrie(obj: Record<string, unknown>, schema: TypeNode | undefined, scope: FieldScope): LeafNode {
  const root: LeafNode = { value: NONE, children: undefined };
  const sink: FieldSink<LeafNode> = {
    top: root,
    below: (node, key) => {
      node.children ??= new Map();
      let child = node.children.get(key);
      if (!child) {
        child = { value: NONE, children: undefined };
        node.children.set(key, child);
      }
      return child;
    },
    // A later report of the same path wins, as a LeafMap's later `set` does.
    leaf: (node, v) => {
      node.value = v;
    },
    present: (node) => {
      node.value = PRESENT;
    },
  };
  walkFields(obj, schema, scope, "all", sink);
  return root;
}

/** The text a LeafMap holds for a leaf; undefined for what JSON cannot write (undefined itself). */
function leafText(v: unknown): string | undefined {
  return v === PRESENT ? "\u0001present" : JSON.stringify(v);
}

const simple = (v: unknown) => typeof v === "string" || typeof v === "boolean" || Number.isFinite(v);

/** Whether a LeafMap would hold different texts for `before` (NONE: no leaf) and `after`. */
function differs(before: unknown, after: unknown): boolean {
  if (before === after) return false;
  if (before === NONE) return simple(after) || leafText(after) !== undefined;
  // Distinct strings, booleans and finite numbers always write distinct JSON.
  if (simple(before) && simple(after)) return true;
  return leafText(before) !== leafText(after);
}

export interface FieldDiff {
  readonly changed: FieldSet;
  readonly removed: FieldSet;
  /** Every field of the new object, built when asked for (only an update by a known manager needs it). */
  present(): FieldSet;
}

/** The diff of `old` and `next` for managedFields (presence "all": every map that appears is a field). */
export function diffFields(
  old: Record<string, unknown>,
  next: Record<string, unknown>,
  schema: TypeNode | undefined,
  scope: FieldScope,
): FieldDiff {
  const before = leafTrie(old, schema, scope);
  const after = leafTrie(next, schema, scope);
  const changed = new FieldSet();
  const removed = new FieldSet();
  const path: string[] = [];
  const compare = (o: LeafNode | undefined, n: LeafNode | undefined) => {
    const was = o ? o.value : NONE;
    const is = n ? n.value : NONE;
    if (is !== NONE) {
      if (differs(was, is)) changed.insertKeys(path);
    } else if (was !== NONE) removed.insertKeys(path);
    for (const [k, c] of n?.children ?? []) {
      path.push(k);
      compare(o?.children?.get(k), c);
      path.pop();
    }
    for (const [k, c] of o?.children ?? []) {
      if (n?.children?.has(k)) continue;
      path.push(k);
      compare(c, undefined);
      path.pop();
    }
  };
  compare(before, after);
  return { changed, removed, present: () => fieldsOf(after) };
}

function fieldsOf(root: LeafNode): FieldSet {
  const set = new FieldSet();
  const path: string[] = [];
  const visit = (node: LeafNode) => {
    if (node.value !== NONE) set.insertKeys(path);
    for (const [k, c] of node.children ?? []) {
      path.push(k);
      visit(c);
      path.pop();
    }
  };
  visit(root);
  return set;
}
