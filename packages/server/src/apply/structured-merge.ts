/**
 * Structured merge for server-side apply: merges an applied configuration
 * into the live object following the schema — structs and granular maps
 * merge per field, map-lists merge items by their keys, sets take the union,
 * atomic lists and maps are replaced; untyped subtrees merge maps and replace
 * lists. Also resolves and removes fieldsV1 paths inside objects.
 * Hand-written: this is structured-merge-diff's job in Go, with no JS port.
 */
import { elementKey, fieldOf, itemOf, listSemantics, type TypeNode } from "@kubesdk/models";
import { listItemKey } from "./list-keys.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function keyOf(item: unknown, keys: readonly string[]): string {
  return elementKey({ key: isObj(item) ? listItemKey(item, keys) : {} });
}

export function mergeApplied(live: unknown, applied: unknown, node: TypeNode | undefined): unknown {
  if (isObj(applied)) {
    if (!isObj(live) || node?.mapType === "atomic" || node?.kind === "scalar") return applied;
    const out: Obj = { ...live };
    for (const [k, v] of Object.entries(applied))
      out[k] = mergeApplied(live[k], v, node ? fieldOf(node, k) : undefined);
    return out;
  }
  if (Array.isArray(applied)) {
    if (!Array.isArray(live) || !node || node.kind !== "list") return applied;
    const sem = listSemantics(node);
    if (sem.type === "atomic") return applied;
    if (sem.type === "set") {
      const seen = new Set(live.map((v) => elementKey({ value: v })));
      return [...live, ...applied.filter((v) => !seen.has(elementKey({ value: v })))];
    }
    const item = itemOf(node);
    const out = [...live];
    for (const a of applied) {
      const k = keyOf(a, sem.keys);
      const i = out.findIndex((l) => keyOf(l, sem.keys) === k);
      if (i >= 0) out[i] = mergeApplied(out[i], a, item);
      else out.push(a);
    }
    return out;
  }
  return applied;
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
    return isObj(container) && rest in container
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
    else o[name] = removeAt(o[name], rest, childNode(node, key));
    return o;
  }
  const list = obj as unknown[];
  const i = list.indexOf(s.value);
  if (rest.length === 0) return [...list.slice(0, i), ...list.slice(i + 1)];
  const copy = [...list];
  copy[i] = removeAt(s.value, rest, childNode(node, key));
  return copy;
}
