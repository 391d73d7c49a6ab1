/**
 * Equality of decoded JSON values (objects as JSON.parse makes them), ignoring the order of keys as
 * `util.isDeepStrictEqual` does, at a tenth of its cost: isDeepStrictEqual also compares prototypes,
 * symbols and property descriptors, which decoded objects never differ in, and took ~25 µs per
 * 1 KiB ConfigMap, on every update (docs/performance.md).
 *
 * Hand-written rather than fast-deep-equal: that library calls the `valueOf` and `toString` it
 * finds on an object and reads its `constructor`, and in JSON those are keys like any other (a
 * ConfigMap may hold a key "valueOf"), so it threw on such objects.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Scalars are equal only when identical (JSON has no NaN).
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) if (!Object.hasOwn(y, k) || !jsonEqual(x[k], y[k])) return false;
  return true;
}
