/**
 * Structured merge for server-side apply: merges an applied configuration
 * into the live object following the schema — structs and granular maps
 * merge per field, map-lists merge items by their keys, sets take the union,
 * atomic lists and maps are replaced; untyped subtrees merge maps and replace
 * lists. Also resolves and removes fieldsV1 paths inside objects.
 * Hand-written: this is structured-merge-diff's job in Go, with no JS port.
 */
import { elementKey, fieldOf, itemOf, listSemantics, type TypeNode } from "@kubesdk/models";
import { setMember } from "@kubesdk/models/internal";
import { listItemKey } from "./list-keys.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function keyOf(item: unknown, keys: readonly string[]): string {
  return elementKey({ key: isObj(item) ? listItemKey(item, keys) : {} });
}

/**
 * The live value with the applied one merged in. A subtree the apply leaves as it was is the live
 * subtree itself, not a copy: nothing is copied but the path to what changed, and a caller tells an
 * apply that changed nothing by reference (server-side-apply.ts `changesObject`).
 */
export function mergeApplied(live: unknown, applied: unknown, node: TypeNode | undefined): unknown {
  if (isObj(applied)) {
    if (!isObj(live) || node?.mapType === "atomic" || node?.kind === "scalar") return applied;
    let out: Obj | undefined;
    for (const k of Object.keys(applied)) {
      const before = live[k];
      const merged = mergeApplied(before, applied[k], node ? fieldOf(node, k) : undefined);
      if (merged === before && (before !== undefined || Object.hasOwn(live, k))) continue;
      out ??= { ...live };
      setMember(out, k, merged);
    }
    return out ?? live;
  }
  if (Array.isArray(applied)) {
    if (!Array.isArray(live) || !node || node.kind !== "list") return applied;
    const sem = listSemantics(node);
    if (sem.type === "atomic") return applied;
    if (sem.type === "set") {
      const seen = new Set(live.map((v) => elementKey({ value: v })));
      const added = applied.filter((v) => !seen.has(elementKey({ value: v })));
      return added.length === 0 ? live : [...live, ...added];
    }
    return mergeMapList(live, applied, sem.keys, itemOf(node));
  }
  return applied;
}

/** Items merge with the first live item of their key; items of a new key are appended. */
function mergeMapList(
  live: unknown[],
  applied: unknown[],
  keys: readonly string[],
  item: TypeNode | undefined,
): unknown[] {
  const index = new Map<string, number>();
  live.forEach((l, i) => {
    const k = keyOf(l, keys);
    if (!index.has(k)) index.set(k, i);
  });
  let out: unknown[] | undefined;
  for (const a of applied) {
    const k = keyOf(a, keys);
    const i = index.get(k);
    if (i === undefined) {
      out ??= [...live];
      index.set(k, out.length);
      out.push(a);
      continue;
    }
    const before = (out ?? live)[i];
    const merged = mergeApplied(before, a, item);
    if (merged === before) continue;
    out ??= [...live];
    out[i] = merged;
  }
  return out ?? live;
}

/** Where one fieldsV1 element key leads inside a value, and how to remove it there. */
interface Step {
  readonly found: boolean;
  readonly value: unknown;
}

function step(container: unknown, key: string, node: TypeNode | undefined): Step {
  const tag = key.slice(0, 2);
  const rest = key.slice(2);
  if (tag === "f:")
    return isObj(container) && Object.hasOwn(container, rest)
      ? { found: true, value: container[rest] }
      : { found: false, value: undefined };
  if (!Array.isArray(container)) return { found: false, value: undefined };
  if (tag === "i:") {
    const i = Number(rest);
    return i < container.length ? { found: true, value: container[i] } : { found: false, value: undefined };
  }
  if (tag === "v:") {
    const hit = container.find((v) => elementKey({ value: v }) === key);
    return hit === undefined ? { found: false, value: undefined } : { found: true, value: hit };
  }
  const keys = node && node.kind === "list" ? listSemantics(node).keys : [];
  const parsed = JSON.parse(rest) as Obj;
  const names = keys.length > 0 ? keys : Object.keys(parsed);
  const hit = container.find((v) => keyOf(v, names) === key);
  return hit === undefined ? { found: false, value: undefined } : { found: true, value: hit };
}

function childNode(node: TypeNode | undefined, key: string): TypeNode | undefined {
  if (!node) return undefined;
  return key.startsWith("f:") ? fieldOf(node, key.slice(2)) : itemOf(node);
}

/** The value at a path of element keys, if present. */
export function valueAt(obj: unknown, path: readonly string[], node: TypeNode | undefined): Step {
  let cur: unknown = obj;
  let n = node;
  for (const key of path) {
    const s = step(cur, key, n);
    if (!s.found) return s;
    cur = s.value;
    n = childNode(n, key);
  }
  return { found: true, value: cur };
}

/**
 * valueAt for many paths of one object: a path is descended from where the previous one's common
 * prefix led, so paths in depth-first order (FieldSet paths()) take one step per new key, not one
 * per key from the root (an apply's conflict check looks up every owned path it sets).
 */
export function pathWalker(obj: unknown, node: TypeNode | undefined): (path: readonly string[]) => Step {
  let keys: readonly string[] = [];
  // at[i]: the value and schema after the first i keys of `keys`, all of them found.
  const at: { value: unknown; node: TypeNode | undefined }[] = [{ value: obj, node }];
  return (path) => {
    let i = 0;
    while (i < at.length - 1 && i < path.length && keys[i] === path[i]) i++;
    at.length = i + 1;
    keys = path;
    for (; i < path.length; i++) {
      const here = at[i] as { value: unknown; node: TypeNode | undefined };
      const key = path[i] as string;
      const s = step(here.value, key, here.node);
      if (!s.found) return s;
      at.push({ value: s.value, node: childNode(here.node, key) });
    }
    return { found: true, value: (at[path.length] as { value: unknown }).value };
  };
}

/** Returns a copy of `obj` without the value at `path` (a list item for k:/v:/i:, a field for f:). */
export function removeAt(obj: unknown, path: readonly string[], node: TypeNode | undefined): unknown {
  if (path.length === 0) return obj;
  const [key, ...rest] = path as [string, ...string[]];
  const s = step(obj, key, node);
  if (!s.found) return obj;
  if (key.startsWith("f:")) {
    const o = { ...(obj as Obj) };
    const name = key.slice(2);
    if (rest.length === 0) delete o[name];
    else setMember(o, name, removeAt(o[name], rest, childNode(node, key)));
    return o;
  }
  const list = obj as unknown[];
  const i = list.indexOf(s.value);
  if (rest.length === 0) return [...list.slice(0, i), ...list.slice(i + 1)];
  const copy = [...list];
  copy[i] = removeAt(s.value, rest, childNode(node, key));
  return copy;
}
