/**
 * The lists extension's `sortBy` macro (cel-go ext.Lists version 2, in the apiserver's base
 * environment): `list.sortBy(e, key)` orders a list by the keys `key` gives its items. cel-go
 * expands it into a binding of the list, a `map` of the keys and a sort by them; here it is one
 * custom macro (macro-api.ts) with the same checks and messages. Ties keep the list's order (Go's
 * sort does not promise an order for them).
 */
import type { ASTNode, Environment } from "@marcbachmann/cel-js";
import { goType } from "../type-names.js";
import {
  type CelType,
  MacroArgumentError,
  type MacroCall,
  type MacroChecker,
  type MacroContext,
  type MacroEvaluator,
  type MacroHooks,
  rangeMessage,
  registerMacro,
  simpleName,
} from "./macro-api.js";
import { CelRuntimeError, celCompare } from "./values.js";

/** The key types cel-go's sort accepts. */
const COMPARABLE = new Set([
  "int",
  "uint",
  "double",
  "bool",
  "string",
  "bytes",
  "google.protobuf.Duration",
  "google.protobuf.Timestamp",
]);

interface SortBy {
  readonly call: ASTNode;
  readonly list: ASTNode;
  readonly itemVar: string;
  readonly key: ASTNode;
  scope?: MacroContext;
}

/** The type of the items `map` walks: a list's items, a map's keys. */
function itemType(chk: MacroChecker, m: SortBy, t: CelType): CelType {
  if (t.kind === "dyn") return chk.dynType;
  if (t.kind === "list") return t.valueType;
  if (t.kind === "map") return t.keyType;
  throw chk.createError("invalid_comprehension_range", rangeMessage(chk, t), m.call);
}

function typeCheck(chk: MacroChecker, m: SortBy, ctx: MacroContext): CelType {
  const listType = chk.check(m.list, ctx);
  m.scope = ctx.forkWithVariable(m.itemVar, itemType(chk, m, listType));
  const keyType = chk.check(m.key, m.scope);
  const sortable = listType.kind === "list" || listType.kind === "dyn";
  if (!sortable || !(keyType.kind === "dyn" || COMPARABLE.has(keyType.name))) {
    const keys = goType(chk.formatType(chk.registry.getListType(keyType)));
    const message = `found no matching overload for '@sortByAssociatedKeys' applied to '${goType(chk.formatType(listType))}.(${keys})'`;
    throw chk.createError("no_matching_overload", message, m.call);
  }
  return listType;
}

function compareKeys(a: unknown, b: unknown): number {
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++)
      if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
    return a.length - b.length;
  }
  return celCompare(a, b);
}

/** cel-go's checks of the keys: one comparable type for all. */
function checkKeys(ev: MacroEvaluator, keys: unknown[]): void {
  const first = ev.debugType(keys[0]).name;
  if (!COMPARABLE.has(first)) throw new CelRuntimeError("list elements must be comparable");
  if (keys.some((k) => ev.debugType(k).name !== first))
    throw new CelRuntimeError("list elements must have the same type");
}

function evaluate(ev: MacroEvaluator, m: SortBy, ctx: MacroContext): unknown {
  const list = ev.run(m.list, ctx);
  if (!Array.isArray(list)) throw new CelRuntimeError("no such overload");
  const scope = (m.scope as MacroContext).reuse(ctx);
  const keys = list.map((item) => ev.run(m.key, scope.setIterValue(item, ev)));
  if (keys.length === 0) return list;
  checkKeys(ev, keys);
  const order = keys.map((_, i) => i).sort((i, j) => compareKeys(keys[i], keys[j]));
  return order.map((i) => list[i]);
}

/** cel-go's targets: anything but a literal (a scalar, a map or a message). */
function expand({ ast, args, receiver }: MacroCall): MacroHooks {
  if (receiver.op === "value" || receiver.op === "map")
    throw new MacroArgumentError(
      "sortBy can only be applied to a list, identifier, comprehension, call or select expression",
      receiver,
    );
  const m: SortBy = {
    call: ast,
    list: receiver,
    itemVar: simpleName(args[0], "argument is not an identifier", ast),
    key: args[1] as ASTNode,
  };
  return {
    typeCheck: (chk, _, ctx) => typeCheck(chk, m, ctx),
    evaluate: (ev, _, ctx) => evaluate(ev, m, ctx),
    async: false,
  };
}

export function registerSortBy(env: Environment): void {
  registerMacro(env, "dyn.sortBy(ast, ast): dyn", expand);
}
