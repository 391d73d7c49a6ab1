/**
 * cel-go's two-variable comprehensions (ext.TwoVarComprehensions, in the apiserver's base CEL
 * environment since 1.32): `all`, `exists`, `existsOne`/`exists_one` with an index (or key) and a
 * value variable, and `transformList`, `transformMap`, `transformMapEntry` with an optional filter.
 * The evaluator's own comprehension binds one variable, so these are its custom macros (see
 * macro-api.ts) that check and walk their range themselves, with cel-go's semantics: `all` and
 * `exists` stop at the first false (true) and otherwise report an error a predicate raised;
 * existsOne and the transforms stop at the first error; a transformMapEntry key met twice is an
 * error. The results of transformMap(Entry) are Maps, so their keys keep their types.
 */
import type { ASTNode, Environment } from "@marcbachmann/cel-js";
import { goType } from "../type-names.js";
import {
  asBool,
  type CelType,
  entriesOf,
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
import { CelRuntimeError } from "./values.js";

type Kind = "all" | "exists" | "existsOne" | "transformList" | "transformMap" | "transformMapEntry";

interface TwoVar {
  readonly kind: Kind;
  readonly call: ASTNode;
  readonly range: ASTNode;
  readonly keyVar: string;
  readonly valueVar: string;
  readonly filter: ASTNode | undefined;
  readonly body: ASTNode;
  /** Set by the check: the scopes binding the key, then the value. */
  keyScope?: MacroContext;
  valueScope?: MacroContext;
  /** The checked key type of transformMapEntry's entries. */
  entryKeyType?: CelType;
}

/** The iteration variables as cel-go's macros require them (simple, distinct, not the accumulator). */
function iterationVars(args: ASTNode[], at: ASTNode): [string, string] {
  const key = simpleName(args[0], "argument must be a simple name", at);
  const value = simpleName(args[1], "argument must be a simple name", at);
  const [k, v] = args as [ASTNode, ASTNode];
  if (key === value) throw new MacroArgumentError(`duplicate variable name: ${key}`, v);
  if (key === "__result__" || key === "@result")
    throw new MacroArgumentError("iteration variable overwrites accumulator variable", k);
  if (value === "__result__" || value === "@result")
    throw new MacroArgumentError("iteration variable overwrites accumulator variable", v);
  return [key, value];
}

/** The key and value types of a range: (int, T) for list<T>, (K, V) for map<K, V>. */
function rangeTypes(chk: MacroChecker, m: TwoVar, ctx: MacroContext): [CelType, CelType] {
  const t = chk.check(m.range, ctx);
  if (t.kind === "dyn") return [chk.dynType, chk.dynType];
  if (t.kind === "list") return [chk.intType, t.valueType];
  if (t.kind === "map") return [t.keyType, t.valueType];
  throw chk.createError("invalid_comprehension_range", rangeMessage(chk, t), m.range);
}

const isBool = (t: CelType) => t.kind === "dyn" || t.name === "bool";

/** cel-go's message for a conditional whose condition is not a bool (existsOne, a filter). */
const conditionalMessage = (chk: MacroChecker, cond: CelType, branch: CelType) =>
  `found no matching overload for '_?_:_' applied to '(${[cond, branch, branch].map((t) => goType(chk.formatType(t))).join(", ")})'`;

function typeCheck(chk: MacroChecker, m: TwoVar, ctx: MacroContext): CelType {
  const [keyType, valueType] = rangeTypes(chk, m, ctx);
  m.keyScope = ctx.forkWithVariable(m.keyVar, keyType);
  m.valueScope = m.keyScope.forkWithVariable(m.valueVar, valueType);
  const result = resultType(chk, m, keyType, chk.check(m.body, m.valueScope));
  if (m.filter) {
    // cel-go's filter is the condition of `filter ? insert(result, …) : result`.
    const f = chk.check(m.filter, m.valueScope);
    if (!isBool(f))
      throw chk.createError("invalid_condition_type", conditionalMessage(chk, f, result), m.call);
  }
  return result;
}

function resultType(chk: MacroChecker, m: TwoVar, keyType: CelType, body: CelType): CelType {
  switch (m.kind) {
    case "all":
    case "exists":
      if (!isBool(body))
        throw chk.createError(
          "invalid_predicate",
          `expected type 'bool' but found '${goType(chk.formatType(body))}'`,
          m.body,
        );
      return chk.boolType;
    case "existsOne":
      if (!isBool(body))
        throw chk.createError("invalid_predicate", conditionalMessage(chk, body, chk.intType), m.call);
      return chk.boolType;
    case "transformList":
      return chk.registry.getListType(body);
    case "transformMap":
      return chk.registry.getMapType(keyType, body);
    case "transformMapEntry":
      return entryType(chk, m, body);
  }
}

function entryType(chk: MacroChecker, m: TwoVar, body: CelType): CelType {
  if (body.kind === "dyn") {
    m.entryKeyType = chk.dynType;
    return chk.registry.getMapType(chk.dynType, chk.dynType);
  }
  if (body.kind !== "map") {
    const accu = goType(chk.formatType(chk.registry.getMapType(chk.dynType, chk.dynType)));
    const message = `found no matching overload for 'cel.@mapInsert' applied to '(${accu}, ${goType(chk.formatType(body))})'`;
    throw chk.createError("invalid_map_entry", message, m.call);
  }
  m.entryKeyType = body.keyType;
  return body;
}

/** Runs `f` for each entry with the variables bound; `f` returns false to stop. */
type Visit = (scope: MacroContext, key: unknown) => boolean;

function walk(ev: MacroEvaluator, m: TwoVar, ctx: MacroContext, f: Visit) {
  const keyScope = (m.keyScope as MacroContext).reuse(ctx);
  const valueScope = (m.valueScope as MacroContext).reuse(keyScope);
  const range = ev.run(m.range, ctx);
  const visit = (k: unknown, v: unknown) => {
    keyScope.setIterValue(k, ev);
    valueScope.setIterValue(v, ev);
    return f(valueScope, k);
  };
  // A list is walked in place (no entry pairs): the common case, and twice as fast.
  if (Array.isArray(range)) {
    for (let i = 0; i < range.length; i++) if (!visit(BigInt(i), range[i])) return;
    return;
  }
  const entries = entriesOf(range, keyScope.iterType);
  if (!entries) throw new CelRuntimeError("no such overload");
  for (const [k, v] of entries) if (!visit(k, v)) return;
}

/** `all` (stop = false) or `exists` (stop = true): an error counts only when nothing stops the walk. */
function quantify(ev: MacroEvaluator, m: TwoVar, ctx: MacroContext, stop: boolean): boolean {
  let error: Error | undefined;
  let found = false;
  walk(ev, m, ctx, (scope) => {
    const r = asBool(ev.tryEval(m.body, scope));
    if (r instanceof Error) error ??= r;
    else if (r === stop) found = true;
    return !found;
  });
  if (found) return stop;
  if (error) throw error;
  return !stop;
}

function mustBool(v: unknown): boolean {
  const b = asBool(v);
  if (b instanceof Error) throw b;
  return b;
}

function existsOne(ev: MacroEvaluator, m: TwoVar, ctx: MacroContext): boolean {
  let count = 0;
  walk(ev, m, ctx, (scope) => {
    if (mustBool(ev.run(m.body, scope))) count++;
    return true;
  });
  return count === 1;
}

/** transformList/Map/MapEntry: `add` takes each kept entry's transform. */
function transform(
  ev: MacroEvaluator,
  m: TwoVar,
  ctx: MacroContext,
  add: (scope: MacroContext, key: unknown) => void,
) {
  walk(ev, m, ctx, (scope, key) => {
    if (!m.filter || mustBool(ev.run(m.filter, scope))) add(scope, key);
    return true;
  });
}

/** Go's %v of a key in cel-go's duplicate-key message. */
const keyText = (k: unknown) => String(k);

function evaluate(ev: MacroEvaluator, m: TwoVar, ctx: MacroContext): unknown {
  switch (m.kind) {
    case "all":
      return quantify(ev, m, ctx, false);
    case "exists":
      return quantify(ev, m, ctx, true);
    case "existsOne":
      return existsOne(ev, m, ctx);
    case "transformList": {
      const out: unknown[] = [];
      transform(ev, m, ctx, (scope) => out.push(ev.run(m.body, scope)));
      return out;
    }
    case "transformMap": {
      const out = new Map<unknown, unknown>();
      transform(ev, m, ctx, (scope, key) => out.set(key, ev.run(m.body, scope)));
      return out;
    }
    case "transformMapEntry": {
      const out = new Map<unknown, unknown>();
      transform(ev, m, ctx, (scope) => {
        for (const [k, v] of entriesOf(ev.run(m.body, scope), m.entryKeyType as CelType) ?? []) {
          if (out.has(k)) throw new CelRuntimeError(`insert failed: key ${keyText(k)} already exists`);
          out.set(k, v);
        }
      });
      return out;
    }
  }
}

function expander(kind: Kind, withFilter: boolean) {
  return ({ ast, args, receiver }: MacroCall): MacroHooks => {
    const [keyVar, valueVar] = iterationVars(args, ast);
    const m: TwoVar = {
      kind,
      call: ast,
      range: receiver,
      keyVar,
      valueVar,
      filter: withFilter ? args[2] : undefined,
      body: args.at(-1) as ASTNode,
    };
    return {
      typeCheck: (chk, _, ctx) => typeCheck(chk, m, ctx),
      evaluate: (ev, _, ctx) => evaluate(ev, m, ctx),
      async: false,
    };
  };
}

export function registerTwoVarComprehensions(env: Environment): void {
  for (const [name, kind] of [
    ["all", "all"],
    ["exists", "exists"],
    ["existsOne", "existsOne"],
    ["exists_one", "existsOne"],
  ] as const)
    registerMacro(env, `dyn.${name}(ast, ast, ast): bool`, expander(kind, false));
  for (const kind of ["transformList", "transformMap", "transformMapEntry"] as const) {
    registerMacro(env, `dyn.${kind}(ast, ast, ast): dyn`, expander(kind, false));
    registerMacro(env, `dyn.${kind}(ast, ast, ast, ast): dyn`, expander(kind, true));
  }
}
