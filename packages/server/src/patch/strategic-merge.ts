/**
 * Strategic merge patch for built-in kinds: a merge patch whose lists follow
 * the schema's patch strategy — `merge` with a merge key merges items by key,
 * `merge` without one unions scalars, anything else replaces — plus the
 * directives `$patch` (replace/delete, and in lists delete/replace by item),
 * `$retainKeys`, `$deleteFromPrimitiveList/<f>` and `$setElementOrder/<f>`,
 * refused as kube-apiserver refuses them when malformed (patch-errors.ts).
 * Items of a patch list naming one merge key more than once merge into one.
 * Hand-written: no JavaScript library implements Kubernetes' patch strategies.
 */
import { fieldOf, itemOf, type TypeNode } from "@kubesdk/models";
import { setMember } from "@kubesdk/models/internal";
import { smpErrors } from "./patch-errors.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const DELETE_PRIMITIVE = "$deleteFromPrimitiveList/";
const SET_ORDER = "$setElementOrder/";

export function applyStrategicMergePatch(
  target: unknown,
  patch: unknown,
  schema: TypeNode | undefined,
): unknown {
  const original = isObj(target) ? target : {};
  // `null` decodes to an empty patch.
  if (patch === null) return original;
  if (!isObj(patch)) throw smpErrors.notAnObject(patch);
  return mergeMap(original, patch, schema) ?? {};
}

/** `$retainKeys` is a list naming every field the patch sets. */
function checkRetainKeys(patch: Obj): string[] | undefined {
  if (!("$retainKeys" in patch)) return undefined;
  const retain = patch.$retainKeys;
  if (!Array.isArray(retain)) throw smpErrors.badRetainKeys();
  const keep = new Set(retain.map((v) => (typeof v === "string" ? v : JSON.stringify(v))));
  for (const [k, v] of Object.entries(patch))
    if (v !== null && !k.startsWith("$") && !keep.has(k)) throw smpErrors.badRetainKeys();
  return retain.filter((v): v is string => typeof v === "string");
}

function mergeMap(original: Obj, patch: Obj, schema: TypeNode | undefined): Obj | undefined {
  if ("$patch" in patch) {
    const directive = patch.$patch;
    if (directive === "delete") return undefined;
    if (directive !== "replace") throw smpErrors.badPatchType(directive, patch);
    const { $patch: _p, ...rest } = patch;
    return stripDirectives(rest) as Obj;
  }
  const retain = checkRetainKeys(patch);
  const out: Obj = { ...original };
  for (const [key, value] of Object.entries(patch)) {
    if (key === "$retainKeys") continue;
    if (key.startsWith(SET_ORDER)) {
      if (!Array.isArray(value)) throw smpErrors.notAList(value);
      continue;
    }
    if (key.startsWith(DELETE_PRIMITIVE)) {
      deleteFromPrimitiveList(out, key.slice(DELETE_PRIMITIVE.length), value);
      continue;
    }
    if (value === null) {
      delete out[key];
      continue;
    }
    const child = schema ? fieldOf(schema, key) : undefined;
    const cur = Object.hasOwn(out, key) ? out[key] : undefined;
    if (Array.isArray(value)) {
      const order = patch[`${SET_ORDER}${key}`] as unknown[] | undefined;
      setMember(out, key, mergeList(Array.isArray(cur) ? cur : [], value, child, order));
    } else if (
      isObj(value) &&
      (child === undefined || child.kind !== "scalar") &&
      child?.mapType !== "atomic"
    ) {
      const merged = mergeMap(isObj(cur) ? cur : {}, value, child);
      if (merged === undefined) delete out[key];
      else setMember(out, key, merged);
    } else {
      setMember(out, key, value);
    }
  }
  reorderUnpatchedLists(out, patch, schema);
  if (retain) {
    const keep = new Set(retain);
    for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
  }
  return out;
}

function deleteFromPrimitiveList(out: Obj, field: string, value: unknown): void {
  if (!Array.isArray(value)) return;
  const cur = out[field];
  if (!Array.isArray(cur)) return;
  if (cur.some((v) => isObj(v) || Array.isArray(v))) throw smpErrors.mixedList(cur, value);
  const drop = new Set(value.map((v) => JSON.stringify(v)));
  out[field] = cur.filter((v) => !drop.has(JSON.stringify(v)));
}

/** `$setElementOrder/<f>` without `<f>` in the patch reorders the stored list. */
function reorderUnpatchedLists(out: Obj, patch: Obj, schema: TypeNode | undefined): void {
  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith(SET_ORDER)) continue;
    const field = key.slice(SET_ORDER.length);
    if (Object.hasOwn(patch, field) || !Array.isArray(out[field]) || !Array.isArray(order)) continue;
    const mergeKey = schema ? fieldOf(schema, field)?.patchMergeKey : undefined;
    const keyOf = mergeKey ? keyedBy(mergeKey) : (v: unknown) => JSON.stringify(v);
    if (mergeKey) for (const o of order) requireKey(o, mergeKey);
    out[field] = reorder(out[field] as unknown[], order, keyOf, keyOf);
  }
}

const keyedBy = (key: string) => (o: unknown) => JSON.stringify(isObj(o) ? o[key] : o);

function requireKey(item: unknown, key: string): Obj {
  if (!isObj(item)) throw smpErrors.noMergeKey({}, key);
  if (!(key in item)) throw smpErrors.noMergeKey(item, key);
  return item;
}

function mergeList(
  original: unknown[],
  patch: unknown[],
  schema: TypeNode | undefined,
  order: unknown[] | undefined,
): unknown[] {
  const strategy = schema?.patchStrategy?.split(",") ?? [];
  if (!strategy.includes("merge")) return stripDirectives(patch) as unknown[];
  const key = schema?.patchMergeKey;
  if (!key) return unionScalars(original, patch, order);
  if (patch.some((p) => !isObj(p)) || (original.length > 0 && original.some((o) => !isObj(o))))
    throw smpErrors.mixedList(original, patch);
  return mergeKeyedList(original as Obj[], patch as Obj[], key, schema ? itemOf(schema) : undefined, order);
}

/** A merge list without a merge key: the union of both, in order if `order` says so. */
function unionScalars(original: unknown[], patch: unknown[], order: unknown[] | undefined): unknown[] {
  const seen = new Set(original.map((v) => JSON.stringify(v)));
  const out = [...original];
  for (const v of patch) if (!seen.has(JSON.stringify(v))) out.push(v);
  const json = (v: unknown) => JSON.stringify(v);
  return order ? reorder(out, order, json, json) : out;
}

/**
 * Items with a `$patch` directive first, in order: delete removes every stored item with that key,
 * replace makes the list the patch's other items, anything else is refused.
 */
function applyListDirectives(
  original: Obj[],
  patch: Obj[],
  key: string,
): { base: Obj[]; items: Obj[]; replaced: boolean } {
  let base = original;
  let replaced = false;
  const items: Obj[] = [];
  for (const p of patch) {
    if (!("$patch" in p)) {
      items.push(p);
      continue;
    }
    if (p.$patch === "delete") {
      const id = JSON.stringify(requireKey(p, key)[key]);
      base = base.filter((o) => JSON.stringify(o[key]) !== id);
    } else if (p.$patch === "replace") replaced = true;
    else if (p.$patch === "merge") throw smpErrors.mergeDirectiveInList();
    else throw smpErrors.badPatchType(p.$patch, p);
  }
  return { base, items, replaced };
}

/** Every item the patch names (but those it deletes) in `order`'s relative order. */
function checkOrder(patch: Obj[], order: unknown[], key: string): void {
  const ids = order.map((o) => JSON.stringify(requireKey(o, key)[key]));
  const named = patch.filter((p) => !("$patch" in p)).map((p) => JSON.stringify(p[key]));
  let at = 0;
  for (const id of ids) if (at < named.length && named[at] === id) at++;
  if (at < named.length) throw smpErrors.orderMismatch(patch, order);
}

function mergeKeyedList(
  original: Obj[],
  patch: Obj[],
  key: string,
  itemSchema: TypeNode | undefined,
  order: unknown[] | undefined,
): unknown[] {
  const { base, items, replaced } = applyListDirectives(original, patch, key);
  if (replaced) return stripDirectives(items) as unknown[];
  if (order && order.length > 0 && patch.length > 0) checkOrder(patch, order, key);
  const k = keyedBy(key);
  const merged = new Map(base.map((o) => [k(o), o as unknown]));
  const named: string[] = [];
  for (const p of items) {
    const id = JSON.stringify(requireKey(p, key)[key]);
    const cur = merged.get(id);
    const next = cur === undefined ? stripDirectives(p) : mergeMap(cur as Obj, p, itemSchema);
    if (next === undefined) merged.delete(id);
    else merged.set(id, next);
    // A key named twice merges into one item.
    if (next !== undefined && !named.includes(id)) named.push(id);
  }
  if (order) {
    const all = [...new Set([...base.map(k), ...named])]
      .filter((id) => merged.has(id))
      .map((id) => merged.get(id));
    return reorder(all, order, k, k);
  }
  return upstreamOrder(base.map(k), named, merged);
}

/**
 * Upstream's order: the patch's items in patch order, with the live items the patch does not name
 * interleaved — such an item goes before a patch item only if both are live and it came first there.
 */
function upstreamOrder(liveKeys: string[], named: string[], merged: Map<string, unknown>): unknown[] {
  const liveIndex = new Map(liveKeys.map((id, i) => [id, i]));
  const namedSet = new Set(named);
  const liveOnly = liveKeys.filter((id) => !namedSet.has(id) && merged.has(id));
  const out: unknown[] = [];
  let j = 0;
  for (const id of named) {
    const at = liveIndex.get(id);
    while (j < liveOnly.length && at !== undefined && (liveIndex.get(liveOnly[j] as string) as number) < at)
      out.push(merged.get(liveOnly[j++] as string));
    out.push(merged.get(id));
  }
  while (j < liveOnly.length) out.push(merged.get(liveOnly[j++] as string));
  return out;
}

/** Items named in `order` come first in that order; the rest keep their relative order after them. */
function reorder(
  items: unknown[],
  order: unknown[],
  keyOfItem: (v: unknown) => string,
  keyOfOrder: (v: unknown) => string,
): unknown[] {
  const rank = new Map(order.map((o, i) => [keyOfOrder(o), i]));
  const ranked = items.filter((v) => rank.has(keyOfItem(v)));
  ranked.sort((a, b) => (rank.get(keyOfItem(a)) as number) - (rank.get(keyOfItem(b)) as number));
  return [...ranked, ...items.filter((v) => !rank.has(keyOfItem(v)))];
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (k.startsWith("$")) continue;
    setMember(out, k, stripDirectives(x));
  }
  return out;
}
