/**
 * A structural diff of two JSON values: every path where they differ, with both
 * sides. Hand-written because no JSON-diff library is installed and the need is
 * small: objects by key, arrays by position, leaves by value.
 */

export interface Difference {
  /** `.a.b[2].c`; "" for the root. */
  readonly path: string;
  readonly reference: unknown;
  readonly real: unknown;
}

/** Marks a side on which the path does not exist. */
export const absent = "(absent)";

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function keyPath(base: string, key: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

export function diffJson(reference: unknown, real: unknown, path = ""): Difference[] {
  if (isObject(reference) && isObject(real)) {
    const keys = [...new Set([...Object.keys(reference), ...Object.keys(real)])].sort();
    return keys.flatMap((key) =>
      diffJson(
        key in reference ? reference[key] : absent,
        key in real ? real[key] : absent,
        keyPath(path, key),
      ),
    );
  }
  if (Array.isArray(reference) && Array.isArray(real)) {
    const length = Math.max(reference.length, real.length);
    return Array.from({ length }, (_, i) =>
      diffJson(
        i < reference.length ? reference[i] : absent,
        i < real.length ? real[i] : absent,
        `${path}[${i}]`,
      ),
    ).flat();
  }
  return JSON.stringify(reference) === JSON.stringify(real) ? [] : [{ path, reference, real }];
}
