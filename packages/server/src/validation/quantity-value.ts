/**
 * The exact value of a resource.Quantity (what it parses to is the models package's decision, Go's
 * ParseQuantity rules), kept as a fraction of bigints so that comparisons (requests against limits,
 * CEL's quantity library) are exact.
 */
import { canonicalQuantity } from "@kubesdk/models";

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
  get negative(): boolean {
    return this.num < 0n;
  }
}

const pow10 = (e: number) => 10n ** BigInt(Math.abs(e));

/** The value of a quantity string, undefined when Go's ParseQuantity refuses it. */
export function quantityValue(text: string): Quantity | undefined {
  try {
    canonicalQuantity(text);
  } catch {
    return undefined;
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
