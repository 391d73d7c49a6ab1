/** Helpers of the built-in defaulters: set a field only where it is unset. */
export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Sets `key` to `value` unless the object already has it. */
export function set(o: Obj, key: string, value: unknown): void {
  if (o[key] === undefined) o[key] = value;
}

/** The object under `key`, created empty when missing (or not an object). */
export function child(o: Obj, key: string): Obj {
  if (!isObj(o[key])) o[key] = {};
  return o[key] as Obj;
}
