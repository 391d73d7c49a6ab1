/**
 * 64-bit integers between protobuf and JavaScript. A JavaScript number holds integers exactly only
 * within ±(2^53 − 1), while Kubernetes int64 fields (generation, resource quotas, durations, user
 * ids) may use the whole int64 range. The codec never rounds one silently:
 *
 * - decode: a value within the safe range is a number; beyond it, `int64: "bigint"` gives a bigint,
 *   `int64: "string"` its decimal string, and the default (`"number"`) throws a WireError
 *   PROTOBUF_INT64;
 * - encode: a safe-integer number, a bigint or a decimal string ("-42"), which must fit the field
 *   (int64, or uint64 for the unsigned types); anything else throws PROTOBUF_INT64.
 */
import { WireError } from "./errors.js";

/** How decoding returns int64 values beyond ±(2^53 − 1). */
export type Int64Mode = "number" | "bigint" | "string";

interface LongLike {
  readonly low: number;
  readonly high: number;
  readonly unsigned?: boolean;
  toString(): string;
}

const unsignedTypes = new Set(["uint64", "fixed64"]);
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;
const decimal = /^[+-]?\d+$/;

/** The exact value of an int64 given as a number, bigint, decimal string or Long-like object. */
export function int64Exact(value: unknown): bigint {
  if (typeof value === "number") return BigInt(value);
  if (typeof value === "bigint") return value;
  if (typeof value === "string") return BigInt(value);
  return BigInt((value as LongLike).toString());
}

/** A decoded int64 in its JSON form under `mode`. */
export function int64ToJson(value: unknown, mode: Int64Mode): number | bigint | string {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  const exact = int64Exact(value);
  if (exact >= BigInt(Number.MIN_SAFE_INTEGER) && exact <= BigInt(Number.MAX_SAFE_INTEGER)) {
    return Number(exact);
  }
  if (mode === "bigint") return exact;
  if (mode === "string") return exact.toString();
  throw new WireError(
    "PROTOBUF_INT64",
    `${exact} is beyond ±(2^53 − 1), which a number cannot hold exactly (decode with int64: "bigint" or "string")`,
  );
}

/** A decoded int64 that the caller needs as a number (a count, a timestamp's seconds). */
export function int64Number(value: unknown): number {
  return int64ToJson(value, "number") as number;
}

/**
 * The low/high words for an int64 given as a safe-integer number, a bigint or
 * a decimal string; throws when it is none of those or does not fit `type`.
 */
export function int64FromJson(
  value: unknown,
  type: string,
): { low: number; high: number; unsigned: boolean } {
  const exact = exactOf(value);
  const unsigned = unsignedTypes.has(type);
  const [min, max] = unsigned ? [0n, uint64Max] : [int64Min, int64Max];
  if (exact === undefined || exact < min || exact > max) {
    throw new WireError(
      "PROTOBUF_INT64",
      `expected an integer that fits ${type} (a safe-integer number, a bigint or a decimal string), got ${show(value)}`,
    );
  }
  const bits = BigInt.asUintN(64, exact);
  return { low: Number(bits & 0xffffffffn) | 0, high: Number(bits >> 32n) | 0, unsigned };
}

function exactOf(value: unknown): bigint | undefined {
  if (typeof value === "bigint") return value;
  if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : undefined;
  if (typeof value === "string" && decimal.test(value)) return BigInt(value);
  return undefined;
}

function show(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number") return String(value);
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}
