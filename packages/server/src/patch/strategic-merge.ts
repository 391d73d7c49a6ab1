/**
 * Strategic merge patch for built-in kinds: a merge patch whose lists follow
 * the schema's patch strategy — `merge` with a merge key merges items by key,
 * `merge` without one unions scalars, anything else replaces — plus the
 * directives `$patch` (replace/delete/merge), `$retainKeys`,
 * `$deleteFromPrimitiveList/<f>` and `$setElementOrder/<f>`.
 * Hand-written: no JavaScript library implements Kubernetes' patch strategies.
 */
import { fieldOf, itemOf, type TypeNode } from "@kubesdk/models";
import { errors } from "../api/status.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const DELETE_PRIMITIVE = "$deleteFromPrimitiveList/";
const SET_ORDER = "$setElementOrder/";

export function applyStrategicMergePatch(
  target: unknown,
  patch: unknown,
  schema: TypeNode | undefined,
): unknown {
  if (!isObj(patch)) throw errors.badRequest("strategic merge patch must be a JSON object");
  return mergeMap(isObj(target) ? target : {}, patch, schema);
}

function mergeMap(original: Obj, patch: Obj, schema: TypeNode | undefined): Obj | undefined {
  const directive = patch.$patch;
  if (directive === "delete") return undefined;
  if (directive === "replace") {
    const { $patch: _p, ...rest } = patch;
    return stripDirectives(rest) as Obj;
  }
  const out: Obj = { ...original };
  const retain = patch.$retainKeys;
  for (const [key, value] of Object.entries(patch)) {
    if (key === "$patch" || key === "$retainKeys" || key.startsWith(SET_ORDER)) continue;
    if (key.startsWith(DELETE_PRIMITIVE)) {
      const field = key.slice(DELETE_PRIMITIVE.length);
      const drop = new Set((Array.isArray(value) ? value : []).map((v) => JSON.stringify(v)));
      const cur = out[field];
      if (Array.isArray(cur)) out[field] = cur.filter((v) => !drop.has(JSON.stringify(v)));
      continue;
    }
    if (value === null) {
      delete out[key];
      continue;
    }
    const child = schema ? fieldOf(schema, key) : undefined;
    const cur = out[key];
    if (Array.isArray(value)) {
      const order = patch[`${SET_ORDER}${key}`];
      out[key] = mergeList(
        Array.isArray(cur) ? cur : [],
        value,
        child,
        Array.isArray(order) ? order : undefined,
      );
    } else if (
      isObj(value) &&
      (child === undefined || child.kind !== "scalar") &&
      child?.mapType !== "atomic"
    ) {
      const merged = mergeMap(isObj(cur) ? cur : {}, value, child);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
    } else {
      out[key] = value;
    }
  }
  if (Array.isArray(retain)) {
    const keep = new Set(retain.map(String));
    for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
  }
  return out;
}

function mergeList(
  original: unknown[],
  patch: unknown[],
  schema: TypeNode | undefined,
  order: unknown[] | undefined,
): unknown[] {
  const strategy = schema?.patchStrategy?.split(",") ?? [];
  if (!strategy.includes("merge")) return stripDirectives(patch) as unknown[];
  // A `{"$patch": "replace"}` item replaces the whole list with the other items.
  if (patch.some((p) => isObj(p) && p.$patch === "replace" && Object.keys(p).length === 1))
    return stripDirectives(patch.filter((p) => !(isObj(p) && p.$patch === "replace"))) as unknown[];
  const key = schema?.patchMergeKey;
  if (!key) return unionScalars(original, patch, order);
  return mergeKeyedList(original, patch, key, schema ? itemOf(schema) : undefined, order);
}

/** A merge list without a merge key: the union of both, in order if `order` says so. */
function unionScalars(original: unknown[], patch: unknown[], order: unknown[] | undefined): unknown[] {
  const seen = new Set(original.map((v) => JSON.stringify(v)));
  const out = [...original];
  for (const v of patch) if (!seen.has(JSON.stringify(v))) out.push(v);
  const json = (v: unknown) => JSON.stringify(v);
  return order ? reorder(out, order, json, json) : out;
}

function mergeKeyedList(
  original: unknown[],
  patch: unknown[],
  key: string,
  itemSchema: TypeNode | undefined,
  order: unknown[] | undefined,
): unknown[] {
  const k = (o: unknown) => JSON.stringify(isObj(o) ? o[key] : o);
  const merged = new Map(original.map((o) => [k(o), o]));
  const named: string[] = [];
  for (const p of patch) {
    if (!isObj(p))
      throw errors.badRequest(`strategic merge patch: list items keyed by "${key}" must be objects`);
    const id = k(p);
    const cur = merged.get(id);
    const next =
      p.$patch === "delete"
        ? undefined
        : cur === undefined
          ? stripDirectives(p)
          : mergeMap(cur as Obj, p, itemSchema);
    if (next === undefined) merged.delete(id);
    else {
      merged.set(id, next);
      named.push(id);
    }
  }
  if (order) {
    const all = [...new Set([...original.map(k), ...named])]
      .filter((id) => merged.has(id))
      .map((id) => merged.get(id));
    return reorder(all, order, k, k);
  }
  return upstreamOrder(original.map(k), named, merged);
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
    out[k] = stripDirectives(x);
  }
  return out;
}
