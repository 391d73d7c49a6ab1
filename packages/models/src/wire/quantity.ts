/**
 * resource.Quantity as the Go type reads and writes it: parsing (what it rejects, how it rounds
 * and caps) and the canonical string it writes ("1.5" → "1500m", "1024Mi" → "1Gi"). A string that
 * is already in a simple canonical-looking form is kept as written, as Go keeps it.
 */
import { WireError } from "./errors.js";

type Format = "DecimalSI" | "BinarySI" | "DecimalExponent";

/** value = mantissa × 10^exponent */
interface Amount {
  readonly mantissa: bigint;
  readonly exponent: number;
  readonly format: Format;
  /** The input, when Go keeps it as the quantity's string form. */
  readonly kept?: string;
}

const decimalSuffixes: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  "": 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const int64Max = 2n ** 63n - 1n;
const int64Min = -(2n ** 63n);

/** The string Go writes for the quantity `text` (as ParseQuantity reads it); throws where Go fails. */
export function canonicalQuantity(text: string): string {
  const amount = parseQuantity(text);
  return amount.kept ?? formatAmount(amount);
}

function invalid(text: string, why: string): never {
  throw new WireError("PROTOBUF_VALUE", `${JSON.stringify(text)} is not a quantity (${why})`);
}

interface Parts {
  readonly positive: boolean;
  /** The number as written: sign, digits and point, without the suffix. */
  readonly value: string;
  readonly num: string;
  readonly denom: string;
  readonly suffix: string;
}

/** <sign>?<digits>?(.<digits>?)?<suffix>, leading zeros of the integer part dropped from `num`. */
function splitQuantity(text: string): Parts {
  const m = /^([+-]?)(0*)(\d*)(?:\.(\d*))?/.exec(text) as RegExpExecArray;
  const [head, sign, zeros, digits, denom = ""] = m as unknown as [string, string, string, string, string?];
  const positive = sign !== "-";
  // Only zeros (or nothing) after the sign: Go reads the whole string as zero.
  if (zeros.length + sign.length === text.length)
    return { positive, value: "0", num: "0", denom: "", suffix: "" };
  const suffix = text.slice(head.length);
  if (!/^[eEinumkKMGTP]*[+-]?\d*$/.test(suffix)) invalid(text, "unexpected characters");
  return { positive, value: head, num: digits === "" ? "0" : digits, denom, suffix };
}

function interpretSuffix(text: string, suffix: string): { base: 2 | 10; exponent: number; format: Format } {
  const decimal = decimalSuffixes[suffix];
  if (decimal !== undefined) return { base: 10, exponent: decimal, format: "DecimalSI" };
  const binary = binarySuffixes[suffix];
  if (binary !== undefined) return { base: 2, exponent: binary, format: "BinarySI" };
  if (suffix.length > 1 && (suffix[0] === "e" || suffix[0] === "E") && /^[+-]?\d+$/.test(suffix.slice(1))) {
    const exponent = BigInt(suffix.slice(1));
    if (exponent >= int64Min && exponent <= int64Max) {
      // Go keeps the exponent as an int32.
      return { base: 10, exponent: Number(BigInt.asIntN(32, exponent)), format: "DecimalExponent" };
    }
  }
  return invalid(text, "unknown suffix");
}

function parseQuantity(text: string): Amount {
  if (text === "") invalid(text, "empty");
  if (text === "0") return { mantissa: 0n, exponent: 0, format: "DecimalSI", kept: "0" };
  const parts = splitQuantity(text);
  const { base, exponent, format } = interpretSuffix(text, parts.suffix);
  return fastAmount(parts, exponent, format, text) ?? exactAmount(parts, base, exponent, format, text);
}

/** Go's int64 path: few enough digits and no finer than nano. */
function fastAmount(p: Parts, exponent: number, format: Format, text: string): Amount | undefined {
  let precision: number;
  let scale = 0;
  let multiplier = 1n;
  if (format !== "BinarySI") {
    scale = exponent;
    precision = 18 - (p.num.length + p.denom.length);
  } else if (exponent >= 0 && p.denom === "") {
    multiplier = 1n << BigInt(exponent);
    precision = 15 - p.num.length - Math.trunc((exponent * 3) / 10) - 1;
  } else {
    precision = -1;
  }
  if (precision < 0) return undefined;
  scale -= p.denom.length;
  if (scale < -9) return undefined;
  const shifted = p.num + p.denom;
  const value = BigInt(shifted);
  let result = value * multiplier;
  if (result > int64Max) return undefined;
  if (!p.positive) result = -result;
  const keep =
    format === "BinarySI"
      ? exponent % 10 === 0 && (value & 7n) !== 0n
      : scale % 3 === 0 && !shifted.endsWith("000") && shifted[0] !== "0";
  return { mantissa: result, exponent: scale, format, ...(keep ? { kept: text } : {}) };
}

/** Go's arbitrary-precision path: rounded up to nano, BinarySI capped at 2^63 − 1. */
function exactAmount(p: Parts, base: number, exponent: number, format: Format, text: string): Amount {
  const m = /^[+-]?(\d*)(?:\.(\d*))?$/.exec(p.value);
  const whole = m?.[1] ?? "";
  const fraction = m?.[2] ?? "";
  if (whole === "" && fraction === "") invalid(text, "no digits");
  let mantissa = BigInt(whole + fraction);
  let exp = -fraction.length;
  if (base === 10) exp += exponent;
  else mantissa <<= BigInt(exponent);
  if (mantissa !== 0n && exp < -9) {
    // Rounded up to a whole nano, away from zero (the sign is applied below).
    const digits = -9 - exp;
    const unit = digits > mantissa.toString().length ? undefined : 10n ** BigInt(digits);
    mantissa = unit === undefined ? 1n : (mantissa + unit - 1n) / unit;
    exp = -9;
  }
  if (format === "BinarySI" && compare(mantissa, exp, int64Max) > 0) {
    mantissa = int64Max;
    exp = 0;
  }
  let fmt = format;
  if (format === "BinarySI" && mantissa !== 0n && compare(mantissa, exp, 1n) < 0) fmt = "DecimalSI";
  return { mantissa: p.positive ? mantissa : -mantissa, exponent: exp, format: fmt };
}

/** Sign of mantissa × 10^exp − n, for mantissa ≥ 0. */
function compare(mantissa: bigint, exp: number, n: bigint): number {
  const [a, b] = exp >= 0 ? [mantissa * 10n ** BigInt(exp), n] : [mantissa, n * 10n ** BigInt(-exp)];
  return a === b ? 0 : a > b ? 1 : -1;
}

function formatAmount(amount: Amount): string {
  const { mantissa, exponent } = amount;
  if (mantissa === 0n) return "0";
  let format = amount.format;
  let integer: bigint | undefined;
  if (format === "BinarySI") {
    const magnitude = mantissa < 0n ? -mantissa : mantissa;
    integer = wholeValue(mantissa, exponent);
    if (compare(magnitude, exponent, 1024n) < 0 || integer === undefined) format = "DecimalSI";
  }
  if (format === "BinarySI" && integer !== undefined) {
    let k = 0;
    while (integer % 1024n === 0n) {
      integer /= 1024n;
      k++;
    }
    const suffix = Object.keys(binarySuffixes).find((s) => binarySuffixes[s] === k * 10) ?? "";
    return `${integer}${suffix}`;
  }
  let m = mantissa;
  let e = exponent;
  while (m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  while (((e % 3) + 3) % 3 !== 0) {
    m *= 10n;
    e--;
  }
  if (format === "DecimalExponent") return e === 0 ? `${m}` : `${m}e${e}`;
  const suffix = Object.keys(decimalSuffixes).find((s) => decimalSuffixes[s] === e) ?? "";
  return `${m}${suffix}`;
}

/** mantissa × 10^exponent when that is an integer. */
function wholeValue(mantissa: bigint, exponent: number): bigint | undefined {
  if (exponent >= 0) return mantissa * 10n ** BigInt(exponent);
  const unit = 10n ** BigInt(-exponent);
  return mantissa % unit === 0n ? mantissa / unit : undefined;
}
