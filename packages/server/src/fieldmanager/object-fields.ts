/**
 * The leaf fields of an object as a FieldSet would name them, walked
 * alongside the schema so list items get their `k:`/`v:` identity: map lists
 * by their keys, sets by value, atomic lists and maps as one leaf; untyped
 * subtrees treat maps as granular and lists as atomic.
 */
import { elementKey, FieldSet, fieldOf, itemOf, listSemantics, type TypeNode } from "@kubesdk/models";
import { writtenWhenAbsent } from "@kubesdk/models/internal";
import { listItemKey } from "../apply/list-keys.js";

/** Path (element keys joined by "\u0000") → JSON of the value there, for every owned leaf. */
export type LeafMap = Map<string, string>;

export const PATH_SEP = "\u0000";

/** Top-level and metadata fields nobody owns (docs/api-semantics.md §6). */
const NEVER_OWNED_METADATA = new Set([
  "name",
  "namespace",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "managedFields",
  "selfLink",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
]);

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Which top-level part of the object a write may own: all but status, only status, or everything. */
export type FieldScope = "main" | "status" | "all";

/** Marks a map or struct node as present, so one that appears is owned itself (`.`) by who added it. */
const PRESENT = "\u0001present";

/**
 * Where a walk reports what it finds. `P` is how a path travels down the walk: joined text for a
 * LeafMap, element keys for a FieldSet (built straight from the walk, without joining and
 * splitting paths, for writes that need only the set).
 */
export interface FieldSink<P> {
  readonly top: P;
  below(path: P, key: string): P;
  /** A leaf (a scalar, an atomic value, an empty map or list, a list item) at `path`. */
  leaf(path: P, v: unknown): void;
  /** A map or struct node that counts as a field itself. */
  present(path: P): void;
}

/**
 * `presence` says which object nodes count as fields themselves: "all" (an update: a node that
 * appears is added by the writer), "zero" (a create: upstream compares against the type's zero
 * object, so a map, struct or list counts unless that object has it, as it has non-pointer structs
 * and fields without `omitempty`), "no-structs" (every map, no struct or list: the live object's
 * fields for server-side apply), "none" (an applied configuration: only leaves and list items). Without `values` every leaf maps to "" (for callers that need the paths only).
 */
export function leafFields(
  obj: Record<string, unknown>,
  schema: TypeNode | undefined,
  scope: FieldScope,
  presence: Presence = "all",
  values = true,
): LeafMap {
  const out: LeafMap = new Map();
  // Paths are built as joined strings: a leaf costs one concatenation, not an array copy.
  const sink: FieldSink<string> = {
    top: "",
    below: (path, key) => (path === "" ? key : `${path}${PATH_SEP}${key}`),
    leaf: values ? (path, v) => out.set(path, JSON.stringify(v)) : (path) => out.set(path, ""),
    present: (path) => out.set(path, PRESENT),
  };
  walkFields(obj, schema, scope, presence, sink);
  return out;
}

/** The fields of `obj` as a FieldSet: what `leafFields` names, without its values. */
export function fieldSetOf(
  obj: Record<string, unknown>,
  schema: TypeNode | undefined,
  scope: FieldScope,
  presence: Presence,
): FieldSet {
  const set = new FieldSet();
  const sink: FieldSink<readonly string[]> = {
    top: [],
    below: (path, key) => [...path, key],
    leaf: (path) => set.insertKeys(path),
    present: (path) => set.insertKeys(path),
  };
  walkFields(obj, schema, scope, presence, sink);
  return set;
}

export type Presence = "all" | "no-structs" | "zero" | "none";

/**
 * Whether field `k` of a struct is in its type's zero object as kube-apiserver's field manager
 * converts it: the fields Go always writes (`@kubesdk/models/internal` writtenWhenAbsent).
 */
function inZeroOf(node: TypeNode | undefined, k: string): boolean {
  return node?.kind === "struct" && node.name !== undefined && writtenWhenAbsent(node.name).names.has(k);
}

/** Reports to `sink` every field of `obj` that `presence` and `scope` make owned. */
export function walkFields<P>(
  obj: Record<string, unknown>,
  schema: TypeNode | undefined,
  scope: FieldScope,
  presence: Presence,
  sink: FieldSink<P>,
): void {
  // `inZero`: whether the node is in the kind's zero object ("zero" presence only).
  const walk = (v: unknown, node: TypeNode | undefined, path: P, inZero: boolean) => {
    if (isObj(v)) {
      const atomic = node?.mapType === "atomic" || node?.kind === "scalar";
      const keys = Object.keys(v);
      if (atomic) return sink.leaf(path, v);
      // An update: an empty struct that gains fields stays the field it was (not added again).
      if (keys.length === 0) return presence === "all" ? sink.present(path) : sink.leaf(path, v);
      if (presence === "all" || (presence === "no-structs" && node?.kind !== "struct")) sink.present(path);
      else if (presence === "zero" && !inZero) sink.present(path);
      for (const k of keys)
        walk(
          v[k],
          node ? fieldOf(node, k) : undefined,
          sink.below(path, `f:${k}`),
          inZero && inZeroOf(node, k),
        );
      return;
    }
    if (Array.isArray(v)) {
      const sem = node && node.kind === "list" ? listSemantics(node) : { type: "atomic" as const, keys: [] };
      if (sem.type === "atomic" || v.length === 0) return sink.leaf(path, v);
      // A list is owned itself where it appears: on an update, and on a create unless the zero object has it.
      if (presence === "all" || (presence === "zero" && !inZero)) sink.present(path);
      const item = node ? itemOf(node) : undefined;
      for (const el of v) {
        if (sem.type === "set") {
          sink.leaf(sink.below(path, elementKey({ value: el })), el);
          continue;
        }
        if (!isObj(el)) return sink.leaf(path, v);
        const itemPath = sink.below(path, elementKey({ key: listItemKey(el, sem.keys) }));
        sink.leaf(itemPath, true);
        walk(el, item, itemPath, false);
      }
      return;
    }
    sink.leaf(path, v);
  };

  for (const [k, v] of Object.entries(obj)) {
    if (k === "apiVersion" || k === "kind") continue;
    if (scope === "main" && k === "status") continue;
    if (scope === "status" && k !== "status") continue;
    const child = schema ? fieldOf(schema, k) : undefined;
    if (k === "metadata" && isObj(v)) {
      const meta = sink.below(sink.top, "f:metadata");
      for (const [mk, mv] of Object.entries(v)) {
        if (NEVER_OWNED_METADATA.has(mk)) continue;
        walk(mv, child ? fieldOf(child, mk) : undefined, sink.below(meta, `f:${mk}`), inZeroOf(child, mk));
      }
      continue;
    }
    walk(v, child, sink.below(sink.top, `f:${k}`), inZeroOf(schema, k));
  }
}
