/**
 * The Kubernetes list library for CEL (isSorted, sum, min, max, indexOf,
 * lastIndexOf), with the behaviour documented for k8s.io/apiserver's CEL
 * libraries: min/max of an empty list is an error, sums overflow like ints.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { CelRuntimeError, celCompare, celEquals } from "./values.js";

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

function extreme(l: readonly unknown[], name: string, pick: (c: number) => boolean): unknown {
  if (l.length === 0) throw new CelRuntimeError(`${name} called on empty list`);
  let best = l[0];
  for (const v of l.slice(1)) if (pick(celCompare(v, best))) best = v;
  return best;
}

function sumInts(l: readonly bigint[]): bigint {
  let total = 0n;
  for (const v of l) {
    total += v;
    if (total > INT64_MAX || total < INT64_MIN) throw new CelRuntimeError("integer overflow");
  }
  return total;
}

export function registerLists(env: Environment): void {
  env.registerFunction("list<A>.isSorted(): bool", (l: unknown[]) =>
    l.every((v, i) => i === 0 || celCompare(l[i - 1], v) <= 0),
  );
  env.registerFunction("list<int>.sum(): int", sumInts);
  env.registerFunction("list<double>.sum(): double", (l: number[]) => l.reduce((a, b) => a + b, 0));
  env.registerFunction("list<A>.min(): A", (l: unknown[]) => extreme(l, "min", (c) => c < 0));
  env.registerFunction("list<A>.max(): A", (l: unknown[]) => extreme(l, "max", (c) => c > 0));
  env.registerFunction("list<A>.indexOf(A): int", (l: unknown[], x: unknown) =>
    BigInt(l.findIndex((v) => celEquals(v, x))),
  );
  env.registerFunction("list<A>.lastIndexOf(A): int", (l: unknown[], x: unknown) =>
    BigInt(l.findLastIndex((v) => celEquals(v, x))),
  );
}
