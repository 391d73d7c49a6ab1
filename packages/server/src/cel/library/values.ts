/** Equality and ordering of evaluator values, as CEL defines them, for the library functions. */

/** Thrown by library functions; the evaluator reports it as the rule's evaluation error. */
export class CelRuntimeError extends Error {}

/** Whether a parse succeeds: the `isX(s)` predicates of the libraries. */
export function succeeds(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

const isMapLike = (v: unknown): v is Map<unknown, unknown> => v instanceof Map;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

function entriesOf(v: unknown): [unknown, unknown][] | undefined {
  if (isMapLike(v)) return [...v.entries()];
  if (isRecord(v)) return Object.entries(v);
  return undefined;
}

/** CEL `==`: numbers compare across int/uint/double, lists and maps element-wise. */
export function celEquals(a: unknown, b: unknown): boolean {
  if (typeof a === "bigint" || typeof a === "number") {
    if (typeof b !== "bigint" && typeof b !== "number") return false;
    // biome-ignore lint/suspicious/noDoubleEquals: CEL compares int and double by value.
    return a == b;
  }
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  }
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof Uint8Array) {
    return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  }
  const ea = entriesOf(a);
  if (ea) {
    const eb = entriesOf(b);
    if (!eb || ea.length !== eb.length) return false;
    const bm = new Map(eb);
    return ea.every(([k, v]) => bm.has(k) && celEquals(v, bm.get(k)));
  }
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  return a === b;
}

/** CEL ordering of two comparable values (numbers, strings, bools, timestamps, durations, bytes). */
export function celCompare(a: unknown, b: unknown): number {
  if ((typeof a === "bigint" || typeof a === "number") && (typeof b === "bigint" || typeof b === "number"))
    return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  const da = durationNanos(a);
  const db = durationNanos(b);
  if (da !== undefined && db !== undefined) return da < db ? -1 : da > db ? 1 : 0;
  throw new CelRuntimeError("no such overload");
}

function durationNanos(v: unknown): bigint | undefined {
  if (typeof v !== "object" || v === null || !("seconds" in v) || !("nanos" in v)) return undefined;
  const d = v as { seconds: number | bigint; nanos: number };
  return BigInt(d.seconds) * 1_000_000_000n + BigInt(d.nanos);
}
