/**
 * The Kubernetes quantity library for CEL: quantity(), isQuantity() and the
 * methods on quantities (comparison, arithmetic, integer and float views).
 * What is a quantity is decided by the models package's parser (Go's
 * ParseQuantity rules); the value is kept exactly, as a fraction of bigints.
 */

import type { Environment } from "@marcbachmann/cel-js";
import { Quantity, quantityValue } from "../../validation/quantity-value.js";
import { CelRuntimeError } from "./values.js";

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const QUANTITY_FORMAT =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

export { Quantity };

export function parseCelQuantity(text: string): Quantity {
  const q = quantityValue(text);
  if (q === undefined) throw new CelRuntimeError(QUANTITY_FORMAT);
  return q;
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
  env.registerOperator(`${Q} == ${Q}`, (a: Quantity, b: Quantity) => a.compare(b) === 0);
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
