/**
 * The Kubernetes quantity library for CEL: quantity(), isQuantity() and the
 * methods on quantities (comparison, arithmetic, integer and float views).
 * What is a quantity is decided by the models package's parser (Go's
 * ParseQuantity rules); the value is kept exactly, as a fraction of bigints.
 */

import { canonicalQuantity } from "@kubesdk/models";
import type { Environment } from "@marcbachmann/cel-js";
import { CelRuntimeError } from "./values.js";

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const BINARY: Record<string, bigint> = { Ki: 10n, Mi: 20n, Gi: 30n, Ti: 40n, Pi: 50n, Ei: 60n };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/** An exact quantity: num / den, den > 0. */
export class Quantity {
  constructor(
    readonly num: bigint,
    readonly den: bigint,
  ) {}
  compare(o: Quantity): number {
    const a = this.num * o.den;
    const b = o.num * this.den;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  plus(o: Quantity, sign = 1n): Quantity {
    return new Quantity(this.num * o.den + sign * o.num * this.den, this.den * o.den);
  }
}

const pow10 = (e: number) => 10n ** BigInt(Math.abs(e));

export function parseCelQuantity(text: string): Quantity {
  try {
    canonicalQuantity(text);
  } catch {
    throw new CelRuntimeError(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  }
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(text) as RegExpExecArray;
  const [, sign = "", int = "", frac = "", suffix = ""] = m;
  let num = BigInt(`${int}${frac}` || "0") * (sign === "-" ? -1n : 1n);
  let den = pow10(frac.length);
  const binary = BINARY[suffix];
  const exp = binary === undefined ? (DECIMAL[suffix] ?? Number(suffix.slice(1))) : undefined;
  if (binary !== undefined) num *= 2n ** binary;
  else if (exp !== undefined && exp >= 0) num *= pow10(exp);
  else if (exp !== undefined) den *= pow10(exp);
  return new Quantity(num, den);
}

function asInteger(q: Quantity): bigint {
  if (q.num % q.den !== 0n) throw new CelRuntimeError("cannot convert value to integer");
  const v = q.num / q.den;
  if (v > INT64_MAX || v < INT64_MIN) throw new CelRuntimeError("cannot convert value to integer");
  return v;
}

const fromInt = (i: bigint) => new Quantity(i, 1n);

export function registerQuantity(env: Environment): void {
  env.registerType("kubernetes.Quantity", Quantity);
  env.registerFunction("quantity(string): kubernetes.Quantity", parseCelQuantity);
  env.registerFunction("isQuantity(string): bool", (s: string) => {
    try {
      parseCelQuantity(s);
      return true;
    } catch {
      return false;
    }
  });
  const Q = "kubernetes.Quantity";
  env.registerFunction(`${Q}.isInteger(): bool`, (q: Quantity) => q.num % q.den === 0n);
  env.registerFunction(`${Q}.asInteger(): int`, asInteger);
  env.registerFunction(`${Q}.asApproximateFloat(): double`, (q: Quantity) => Number(q.num) / Number(q.den));
  env.registerFunction(`${Q}.sign(): int`, (q: Quantity) => BigInt(q.compare(fromInt(0n))));
  env.registerFunction(`${Q}.isGreaterThan(${Q}): bool`, (a: Quantity, b: Quantity) => a.compare(b) > 0);
  env.registerFunction(`${Q}.isLessThan(${Q}): bool`, (a: Quantity, b: Quantity) => a.compare(b) < 0);
  env.registerFunction(`${Q}.compareTo(${Q}): int`, (a: Quantity, b: Quantity) => BigInt(a.compare(b)));
  env.registerFunction(`${Q}.add(${Q}): ${Q}`, (a: Quantity, b: Quantity) => a.plus(b));
  env.registerFunction(`${Q}.add(int): ${Q}`, (a: Quantity, b: bigint) => a.plus(fromInt(b)));
  env.registerFunction(`${Q}.sub(${Q}): ${Q}`, (a: Quantity, b: Quantity) => a.plus(b, -1n));
  env.registerFunction(`${Q}.sub(int): ${Q}`, (a: Quantity, b: bigint) => a.plus(fromInt(b), -1n));
}
