/**
 * Go's encoding of a validated built-in object: the empty maps, lists and base64 `""` byte
 * strings of its `omitempty` fields are no fields. The decode walk (typed-decode.ts) notes where the request had them; they stay
 * through defaulting, admission and validation, which see them as Go's validation sees a non-nil
 * empty value (e.g. a Windows pod's `supplementalGroups: []` is refused), and go before the
 * managed fields are computed and the object is stored, as kube-apiserver stores it.
 */
import { type Emptied, isEmptyCollection } from "./typed-decode.js";

/**
 * Deletes each noted field that is still an empty map, list or `""` of the request's own copy: a field
 * whose object was replaced since (by defaults, admission, or an update keeping a stored part) is
 * left alone, so nothing shared with a stored object is changed.
 */
export function dropEmptied(
  obj: Record<string, unknown>,
  emptied: readonly Emptied[],
  isDropped: (v: unknown) => boolean = isEmptied,
): void {
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
    if (Object.hasOwn(record, key) && isDropped(record[key])) delete record[key];
  }
}

const isEmptied = (v: unknown): boolean => v === "" || isEmptyCollection(v);

/**
 * Deletes the noted zero scalars of fields Go always writes (`serviceName: ""`, `value: 0`), as
 * dropEmptied does: kube-apiserver's field manager compares a create with the kind's zero object,
 * so a zero value the request sent is owned by no manager. Go's encoding writes them again
 * (go-written.ts), after the managed fields.
 */
export function dropZeroed(obj: Record<string, unknown>, zeroed: readonly Emptied[]): void {
  dropEmptied(obj, zeroed, (v) => v === "" || v === 0 || v === false);
}
