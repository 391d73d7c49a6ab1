/**
 * The parts of the evaluator's custom-macro interface the macros here use (its README, "Custom
 * macros": an overload with `ast` parameters returns `typeCheck` and `evaluate` hooks). The
 * evaluator's typings leave the hooks' arguments untyped, so they are spelled out here; the context
 * calls (forkWithVariable, reuse, setIterValue) are the ones its own `cel.bind` macro makes.
 */
import type { ASTNode, Environment } from "@marcbachmann/cel-js";
import { goType } from "../type-names.js";
import { CelRuntimeError } from "./values.js";

export interface CelType {
  readonly kind: string;
  readonly name: string;
  readonly keyType: CelType;
  readonly valueType: CelType;
}

/** A scope: the expression's variables, or one more iteration variable over another scope. */
export interface MacroContext {
  forkWithVariable(name: string, type: CelType): MacroContext;
  /** Puts this scope over the caller's current one, for one evaluation. */
  reuse(parent: MacroContext): MacroContext;
  setIterValue(value: unknown, ev: MacroEvaluator): MacroContext;
  readonly iterType: CelType;
}

export interface MacroChecker {
  check(node: ASTNode, ctx: MacroContext): CelType;
  createError(code: string, message: string, node: ASTNode): Error;
  formatType(t: CelType): string;
  getType(name: string): CelType;
  readonly registry: {
    getListType(t: CelType): CelType;
    getMapType(k: CelType, v: CelType): CelType;
  };
  readonly boolType: CelType;
  readonly intType: CelType;
  readonly dynType: CelType;
}

export interface MacroEvaluator {
  run(node: ASTNode, ctx: MacroContext): unknown;
  tryEval(node: ASTNode, ctx: MacroContext): unknown;
  debugType(v: unknown): CelType;
}

export interface MacroCall {
  readonly ast: ASTNode;
  readonly args: ASTNode[];
  readonly receiver: ASTNode;
}

export interface MacroHooks {
  typeCheck(chk: MacroChecker, self: unknown, ctx: MacroContext): CelType;
  evaluate(ev: MacroEvaluator, self: unknown, ctx: MacroContext): unknown;
  /** No async functions are registered: evaluation never returns a promise. */
  readonly async: false;
}

/** Registers a macro: `signature` has `ast` for each unevaluated argument. */
export function registerMacro(env: Environment, signature: string, expand: (call: MacroCall) => MacroHooks) {
  env.registerFunction(signature, expand as never);
}

/** A parse error of a macro, reported at `node` with cel-go's message (no "Syntax error:" prefix). */
export class MacroArgumentError extends Error {
  readonly code = "invalid_macro_argument";
  readonly range: { start: number; end: number };
  constructor(message: string, node: ASTNode) {
    super(message);
    this.range = node.range;
  }
}

/** The simple name an argument must be, as cel-go's macros require. */
export function simpleName(node: ASTNode | undefined, message: string, at: ASTNode): string {
  if (node?.op === "id") return node.args as string;
  throw new MacroArgumentError(message, node ?? at);
}

/** cel-go's message for a range that is not a list, map or dyn. */
export const rangeMessage = (chk: MacroChecker, t: CelType) =>
  `expression of type '${goType(chk.formatType(t))}' cannot be range of a comprehension (must be list, map, or dynamic)`;

/** A predicate's result: a bool, or the error a non-bool is in cel-go's logical operators. */
export function asBool(v: unknown): boolean | Error {
  if (v instanceof Error || typeof v === "boolean") return v;
  return new CelRuntimeError("no such overload");
}

/**
 * A map key read from a plain object (the evaluator keeps map literals as objects, their keys as
 * strings) in the key type the checker gave it, so `{1: 'a'}`'s key is the int 1.
 */
export function typedKey(key: unknown, type: CelType): unknown {
  if (typeof key !== "string") return key;
  if (type.name === "int" && /^-?\d+$/.test(key)) return BigInt(key);
  if (type.name === "double" && key !== "" && !Number.isNaN(Number(key))) return Number(key);
  if (type.name === "bool" && (key === "true" || key === "false")) return key === "true";
  return key;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" &&
  v !== null &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** The entries a two-variable comprehension walks: (index, item) of a list, (key, value) of a map. */
export function entriesOf(v: unknown, keyType: CelType): [unknown, unknown][] | undefined {
  if (Array.isArray(v)) return v.map((x, i) => [BigInt(i), x]);
  if (v instanceof Map) return [...v.entries()];
  if (isPlainObject(v)) return Object.entries(v).map(([k, x]) => [typedKey(k, keyType), x]);
  return undefined;
}
