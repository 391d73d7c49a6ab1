/**
 * The cel-go lists extension the apiserver enables: slice, flatten, sort,
 * distinct, reverse, first, last and lists.range (sortBy, a macro, is not
 * here). Errors carry cel-go's wording.
 */
import { type Environment, Optional } from "@marcbachmann/cel-js";
import { CelRuntimeError, celCompare, celEquals } from "./values.js";

function slice(l: unknown[], start: bigint, end: bigint): unknown[] {
  if (start < 0n || end < 0n)
    throw new CelRuntimeError(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end)
    throw new CelRuntimeError(
      `cannot slice(${start}, ${end}), start index must be less than or equal to end index`,
    );
  if (end > BigInt(l.length))
    throw new CelRuntimeError(`cannot slice(${start}, ${end}), list is length ${l.length}`);
  return l.slice(Number(start), Number(end));
}

function flatten(l: unknown[], depth: bigint): unknown[] {
  if (depth < 0n) throw new CelRuntimeError("level must be non-negative");
  if (depth === 0n) return l;
  return l.flatMap((x) => (Array.isArray(x) ? flatten(x, depth - 1n) : [x]));
}

const distinct = (l: unknown[]) => l.filter((x, i) => l.findIndex((y) => celEquals(x, y)) === i);

/** The `lists` namespace value: CEL calls `lists.range(n)` as a method of it. */
class ListsNamespace {}

export function registerExtLists(env: Environment): void {
  env.registerFunction("list<A>.slice(int, int): list<A>", slice);
  env.registerFunction("list<list<A>>.flatten(): list<A>", (l: unknown[]) => flatten(l, 1n));
  env.registerFunction("list<dyn>.flatten(int): list<dyn>", flatten);
  env.registerFunction("list<A>.sort(): list<A>", (l: unknown[]) => [...l].sort(celCompare));
  env.registerFunction("list<A>.distinct(): list<A>", distinct);
  env.registerFunction("list<A>.reverse(): list<A>", (l: unknown[]) => [...l].reverse());
  env.registerFunction("list<A>.first(): optional<A>", (l: unknown[]) =>
    l.length > 0 ? Optional.of(l[0]) : Optional.none(),
  );
  env.registerFunction("list<A>.last(): optional<A>", (l: unknown[]) =>
    l.length > 0 ? Optional.of(l.at(-1)) : Optional.none(),
  );
  env.registerType("k8s.lists", ListsNamespace);
  env.registerConstant("lists", "k8s.lists", new ListsNamespace());
  env.registerFunction("k8s.lists.range(int): list<int>", (_: unknown, n: bigint) =>
    Array.from({ length: Number(n > 0n ? n : 0n) }, (_, i) => BigInt(i)),
  );
}
