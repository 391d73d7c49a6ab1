/**
 * Go's encoding of a validated built-in object: the empty maps, lists and base64 `""` byte
 * strings of its `omitempty` fields are no fields. The decode walk (typed-decode.ts) notes where the request had them; they stay
 * through defaulting, admission and validation, which see them as Go's validation sees a non-nil
 * empty value (e.g. a Windows pod's `supplementalGroups: []` is refused), and go before the object
 * is stored, as kube-apiserver stores it; the managed fields, computed before admission, read a
 * view without them (withoutEmptied).
 */
import { type Emptied, isEmptyCollection } from "./typed-decode.js";

/**
 * Deletes each noted field that is still an empty map, list or `""` of the request's own copy: a field
 * whose object was replaced since (by defaults, admission, or an update keeping a stored part) is
 * left alone, so nothing shared with a stored object is changed.
 */
export function dropEmptied(obj: Record<string, unknown>, emptied: readonly Emptied[]): void {
  for (const { path, container } of emptied) {
    let parent: unknown = obj;
    for (let i = 0; i < path.length - 1; i++) {
      if (typeof parent !== "object" || parent === null) break;
      parent = (parent as Record<string | number, unknown>)[path[i] as string | number];
    }
    // The root is the request's own shallow copy of the decoded object; deeper parents are its objects.
    if (path.length > 1 && parent !== container) continue;
    if (typeof parent !== "object" || parent === null || Array.isArray(parent)) continue;
    const record = parent as Record<string, unknown>;
    const key = path[path.length - 1] as string;
    if (Object.hasOwn(record, key) && isEmptied(record[key])) delete record[key];
  }
}

const isEmptied = (v: unknown): boolean => v === "" || isEmptyCollection(v);

/**
 * The object as Go's field manager reads it before admission: `obj` without the noted empty values
 * (`emptied`) and, for a create, the noted zero scalars (`zeroed`), each dropped under the same
 * rule as dropEmptied. `obj` is not changed: the maps and lists on the way to a dropped field are
 * copied, everything else is shared; with nothing to drop it is `obj` itself.
 */
export function withoutEmptied<T extends Record<string, unknown>>(
  obj: T,
  emptied: readonly Emptied[],
  zeroed: readonly Emptied[] = [],
): T {
  if (emptied.length === 0 && zeroed.length === 0) return obj;
  const copies = new Map<object, Record<string | number, unknown>>();
  const root = { ...obj };
  copies.set(obj, root);
  const dropIn = (noted: readonly Emptied[], isDropped: (v: unknown) => boolean) => {
    for (const { path, container } of noted) {
      const parents = parentsOf(obj, path);
      const parent = parents[parents.length - 1];
      if (path.length > 1 && parent !== container) continue;
      if (typeof parent !== "object" || parent === null || Array.isArray(parent)) continue;
      const key = path[path.length - 1] as string;
      if (!Object.hasOwn(parent, key) || !isDropped((parent as Record<string, unknown>)[key])) continue;
      delete copyAlong(parents, path, copies)[key];
    }
  };
  dropIn(emptied, isEmptied);
  dropIn(zeroed, (v) => v === "" || v === 0 || v === false);
  return root as T;
}

/** The values from `obj` down to the parent of `path`'s last key (fewer when the way breaks). */
function parentsOf(obj: object, path: readonly (string | number)[]): unknown[] {
  const parents: unknown[] = [obj];
  let at: unknown = obj;
  for (let i = 0; i < path.length - 1; i++) {
    if (typeof at !== "object" || at === null) return [...parents, undefined];
    at = (at as Record<string | number, unknown>)[path[i] as string | number];
    parents.push(at);
  }
  return parents;
}

/** The copy of the last of `parents`, copying each one on the way (copies are made once, in `copies`). */
function copyAlong(
  parents: readonly unknown[],
  path: readonly (string | number)[],
  copies: Map<object, Record<string | number, unknown>>,
): Record<string | number, unknown> {
  let copy = copies.get(parents[0] as object) as Record<string | number, unknown>;
  for (let i = 1; i < parents.length; i++) {
    const original = parents[i] as object;
    let next = copies.get(original);
    if (!next) {
      next = (Array.isArray(original) ? [...original] : { ...original }) as Record<string | number, unknown>;
      copies.set(original, next);
      copy[path[i - 1] as string | number] = next;
    }
    copy = next;
  }
  return copy;
}
