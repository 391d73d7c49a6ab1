/**
 * Resource lists as quota reads and writes them (upstream's quota helpers over
 * map[ResourceName]resource.Quantity): exact sums and comparisons, and the string Go writes for a
 * sum — in the format of the amount it started from, so memory stays binary ("1536Mi") and CPU
 * decimal ("1500m").
 */
import { canonicalQuantity } from "@kubesdk/models";
import { quantityValue } from "../../validation/quantity-value.js";

export type ResourceList = Record<string, string>;

/** An exact amount, num / den with den > 0, and whether Go would print it with a binary suffix. */
interface Amount {
  readonly num: bigint;
  readonly den: bigint;
  readonly binary: boolean;
}

const BINARY: Readonly<Record<string, bigint>> = { Ki: 10n, Mi: 20n, Gi: 30n, Ti: 40n, Pi: 50n, Ei: 60n };
const BINARY_SUFFIXES = ["Ei", "Pi", "Ti", "Gi", "Mi", "Ki"] as const;

/** The exact value of a quantity string (validation/quantity-value.ts) and its format; undefined when Go would not parse it. */
export function amountOf(text: string): Amount | undefined {
  const value = quantityValue(text);
  if (value === undefined) return undefined;
  return { num: value.num, den: value.den, binary: /(Ki|Mi|Gi|Ti|Pi|Ei)$/.test(text) };
}

const ZERO: Amount = { num: 0n, den: 1n, binary: false };
const parse = (text: string | undefined): Amount => (text === undefined ? ZERO : (amountOf(text) ?? ZERO));

/** a + sign·b in a's format, or b's when a is zero (as Go's Quantity.Add picks the format). */
function combine(a: Amount, b: Amount, sign: bigint): Amount {
  const binary = a.num === 0n ? b.binary : a.binary;
  return { num: a.num * b.den + sign * b.num * a.den, den: a.den * b.den, binary };
}

export function compareAmounts(a: string | undefined, b: string | undefined): number {
  const x = parse(a);
  const y = parse(b);
  const l = x.num * y.den;
  const r = y.num * x.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

/** The string Go writes for an amount: binary suffixes for binary amounts that are whole multiples. */
function format(a: Amount): string {
  const whole = a.num % a.den === 0n ? a.num / a.den : undefined;
  if (a.binary && whole !== undefined && whole !== 0n) {
    for (const s of BINARY_SUFFIXES) {
      const unit = 2n ** (BINARY[s] as bigint);
      if (whole % unit === 0n) return canonicalQuantity(`${whole / unit}${s}`);
    }
    return canonicalQuantity(String(whole));
  }
  if (whole !== undefined) return canonicalQuantity(String(whole));
  // A fraction: its denominator is a power of ten (sums of decimal quantities), so the numerator's
  // digits with a point `digits` from the right spell it.
  let digits = 0;
  for (let den = a.den; den % 10n === 0n; den /= 10n) digits++;
  const num = a.num;
  const negative = num < 0n;
  const abs = (negative ? -num : num).toString().padStart(digits + 1, "0");
  const text = `${negative ? "-" : ""}${abs.slice(0, abs.length - digits)}.${abs.slice(abs.length - digits)}`;
  return canonicalQuantity(text);
}

export function addAmounts(a: string | undefined, b: string | undefined, sign = 1n): string {
  return format(combine(parse(a), parse(b), sign));
}

/** a + b for every key of either (quota.Add). */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = a[k] === undefined ? v : addAmounts(a[k], v);
  return out;
}

/** a − b, keys of a only, never below zero (quota.SubtractWithNonNegativeResult). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const [k, v] of Object.entries(a)) {
    const diff = b[k] === undefined ? v : addAmounts(v, b[k], -1n);
    out[k] = compareAmounts(diff, "0") < 0 ? "0" : diff;
  }
  return out;
}

/** Only the keys in `names` (quota.Mask). */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = {};
  for (const k of names) if (list[k] !== undefined) out[k] = list[k] as string;
  return out;
}

export function withoutZeros(list: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const [k, v] of Object.entries(list)) if (compareAmounts(v, "0") !== 0) out[k] = v;
  return out;
}

/** "k=v,k=v", keys sorted: how upstream prints a resource list in a quota error. */
export function prettyPrint(list: ResourceList): string {
  return Object.keys(list)
    .sort()
    .map((k) => `${k}=${list[k]}`)
    .join(",");
}
