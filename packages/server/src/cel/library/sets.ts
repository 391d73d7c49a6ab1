/** The Kubernetes sets library for CEL: sets.contains, sets.equivalent, sets.intersects over lists. */
import type { Environment } from "@marcbachmann/cel-js";
import { celEquals } from "./values.js";

/** The `sets` namespace value: CEL calls `sets.contains(a, b)` as a method of it. */
class SetsNamespace {}

const has = (l: readonly unknown[], x: unknown) => l.some((v) => celEquals(v, x));

export function registerSets(env: Environment): void {
  env.registerType("k8s.sets", SetsNamespace);
  env.registerConstant("sets", "k8s.sets", new SetsNamespace());
  env.registerFunction(
    "k8s.sets.contains(list<A>, list<A>): bool",
    (_: unknown, a: unknown[], b: unknown[]) => b.every((x) => has(a, x)),
  );
  env.registerFunction(
    "k8s.sets.equivalent(list<A>, list<A>): bool",
    (_: unknown, a: unknown[], b: unknown[]) => b.every((x) => has(a, x)) && a.every((x) => has(b, x)),
  );
  env.registerFunction(
    "k8s.sets.intersects(list<A>, list<A>): bool",
    (_: unknown, a: unknown[], b: unknown[]) => b.some((x) => has(a, x)),
  );
}
