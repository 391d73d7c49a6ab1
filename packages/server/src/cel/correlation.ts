/**
 * Pairing a value with its old value on update, as the apiserver does for
 * transition rules and for ratcheting: object properties and map values pair
 * by key; list items pair only in `x-kubernetes-list-type: map` lists (by their
 * keys) and, for ratcheting, in `set` lists (by value).
 */
import { isObject, type JsonSchema } from "../crd/json-schema.js";

/** A value and its old value; `equal` is computed once, on demand. */
export class Correlated {
  private eq: boolean | undefined;
  constructor(
    readonly value: unknown,
    readonly old: unknown,
  ) {}
  get equal(): boolean {
    this.eq ??= deepEqual(this.value, this.old);
    return this.eq;
  }
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}

/** Upstream's ratcheting options: the current node's correlation, else the nearest correlated ancestor's. */
export interface Ratchet {
  readonly current?: Correlated;
  readonly parent?: Correlated;
}

/** Whether a failure of a rule that does not use oldSelf is allowed because the value did not change. */
export function shouldRatchet(r: Ratchet): boolean {
  if (r.current) return r.current.equal;
  return r.parent?.equal ?? false;
}

export function ratchetKey(r: Ratchet, k: string): Ratchet {
  if (!r.current) return r;
  // The root's apiVersion and kind are the same for old and new after conversion: never ratcheted.
  if (!r.parent && (k === "apiVersion" || k === "kind")) return {};
  const { value, old } = r.current;
  const child =
    isObject(value) && isObject(old) && Object.hasOwn(old, k) ? new Correlated(value[k], old[k]) : undefined;
  return child ? { current: child, parent: r.current } : { parent: r.current };
}

export function ratchetIndex(r: Ratchet, schema: JsonSchema, i: number): Ratchet {
  if (!r.current) return r;
  const { value, old } = r.current;
  if (!Array.isArray(value) || !Array.isArray(old) || i >= value.length) return { parent: r.current };
  const item = value[i];
  const match = oldItem(schema, old, item);
  return match === undefined
    ? { parent: r.current }
    : { current: new Correlated(item, match), parent: r.current };
}

/** The old item a new list item pairs with: by keys in map lists, by value in set lists. */
export function oldItem(schema: JsonSchema, old: readonly unknown[], item: unknown, setsToo = true): unknown {
  const listType = schema["x-kubernetes-list-type"];
  if (listType === "map") {
    const keys = Array.isArray(schema["x-kubernetes-list-map-keys"])
      ? (schema["x-kubernetes-list-map-keys"] as string[])
      : [];
    if (!isObject(item)) return undefined;
    return old.find((o) => isObject(o) && keys.every((k) => deepEqual(o[k], item[k])));
  }
  if (listType === "set" && setsToo) return old.find((o) => deepEqual(o, item));
  return undefined;
}
