/**
 * Compiling one CEL expression in an environment: parse, route `matches` to
 * RE2, type-check, and report failures in cel-go's format
 * (`ERROR: <input>:1:5: undefined field 'foo'` plus the source line and a caret),
 * translating the evaluator's wording where cel-go's is known.
 */
import type { ASTNode, Environment } from "@marcbachmann/cel-js";
import { withoutBackticks } from "./backticks.js";
import { RE2_MATCHES, re2SyntaxError } from "./library/regex.js";
import { macroArgumentMessage, misusedMacro } from "./macro-errors.js";
import { goType } from "./type-names.js";

export interface Program {
  /** The checked type of the expression, e.g. `bool`, `string`. */
  readonly type: string;
  readonly ast: ASTNode;
  /** Evaluates; throws on an evaluation error. */
  readonly run: (vars: Record<string, unknown>) => unknown;
}

export type Compiled = { ok: true; program: Program } | { ok: false; error: string };

interface LocatedError {
  readonly code?: string;
  readonly message: string;
  readonly range?: { start: number };
  readonly node?: { readonly op?: string; readonly args?: unknown };
}

type Located = {
  readonly op?: string;
  readonly args?: unknown;
  readonly range?: { start: number; end: number };
};

/** Where cel-go places a node: a selection at its dot, a call at its parenthesis, an operation at its operator. */
function nodeOffset(source: string, node: Located): number {
  const start = node.range?.start ?? 0;
  const args = Array.isArray(node.args) ? (node.args as Located[]) : [];
  const op = node.op ?? "";
  if (op === "rcall" || op === "call") {
    const name = args[0] as unknown as string;
    const from = op === "rcall" ? (args[1]?.range?.end ?? start) : start;
    const at = source.indexOf("(", source.indexOf(name, from) + name.length);
    return at >= 0 ? at : start;
  }
  const left = args[0]?.range;
  if (!left) return start;
  if (op === "." || op === ".?") return source.indexOf(".", left.end);
  // A selection in backticks rewritten as an index (backticks.ts): at the bracket, the dot's place.
  if (op === "[]" || op === "[?]") return left.end;
  if (op in OPERATORS || op === "&&" || op === "||") return source.indexOf(op, left.end);
  return start;
}

/** Where cel-go points: at the dot of a selection, at the operator of an operation. */
function celGoOffset(source: string, err: LocatedError, message: string): number {
  const start = err.range?.start ?? 0;
  const node = err.node as Located | undefined;
  if (message.startsWith("undefined field"))
    return node && [".", ".?", "[]", "[?]"].includes(node.op ?? "") ? nodeOffset(source, node) : start - 1;
  if (!node) return start;
  if (message.startsWith("expected type") || message.startsWith("expression of type"))
    return nodeOffset(source, node);
  const op = node.op;
  const called = op === "call" || op === "rcall";
  const overload = message.startsWith("found no matching overload for '");
  if (overload && (called || (message.startsWith("found no matching overload for '_") && op))) {
    const at = nodeOffset(source, node);
    if (at >= 0) return at;
  }
  return start;
}

/** Namespaces the library functions are declared under (`strings.quote` is `k8s.strings.quote`). */
const NAMESPACE_TYPES = new Set(["k8s.strings", "k8s.ip", "k8s.format", "k8s.sets", "k8s.lists"]);

/** cel-go's wording of a call no overload matches: the name, then the receiver's and arguments' types. */
function overloadMessage(receiver: string | undefined, name: string, args: string): string {
  if (receiver === undefined || NAMESPACE_TYPES.has(receiver)) {
    const fn = receiver ? `${receiver.slice(4)}.${name}` : name;
    return `found no matching overload for '${fn}' applied to '(${goType(args)})'`;
  }
  return `found no matching overload for '${name}' applied to '${goType(receiver)}.(${goType(args)})'`;
}

const OPERATORS: Record<string, string> = {
  "+": "_+_",
  "-": "_-_",
  "*": "_*_",
  "/": "_/_",
  "%": "_%_",
  "<": "_<_",
  "<=": "_<=_",
  ">": "_>_",
  ">=": "_>=_",
  "==": "_==_",
  "!=": "_!=_",
  in: "@in",
};

/** cel-go's wording for the evaluator's check errors it has an equivalent for. */
function celGoMessage(e: LocatedError, parse: boolean): string {
  const first = (e.message.split("\n")[0] ?? "").replaceAll(RE2_MATCHES, "matches");
  if (parse && e.code === "invalid_macro_argument") return macroArgumentMessage(first);
  if (parse) return `Syntax error: ${first.charAt(0).toLowerCase()}${first.slice(1)}`;
  if (first.startsWith("Expression of type")) return `e${first.slice(1)}`;
  let m = /^No such key: (.*)$/.exec(first);
  if (m) return `undefined field '${m[1]}'`;
  m = /^Unknown variable: (.*)$/.exec(first);
  if (m) return `undeclared reference to '${m[1]}' (in container '')`;
  m = /^no such overload: (\S+) (\S+) (\S+)$/.exec(first);
  if (m?.[2] && OPERATORS[m[2]])
    return `found no matching overload for '${OPERATORS[m[2]]}' applied to '(${goType(m[1] as string)}, ${goType(m[3] as string)})'`;
  m = /^found no matching overload for '(?:(.+)\.)?(\w+)\((.*)\)'$/.exec(first);
  if (m) return overloadMessage(m[1], m[2] as string, m[3] as string);
  return first;
}

/** `ERROR: <input>:L:C: msg` with the source line and a caret under column C. */
export function celGoIssue(source: string, offset: number, message: string): string {
  const before = source.slice(0, Math.max(0, Math.min(offset, source.length)));
  const line = before.split("\n").length;
  const lineStart = before.lastIndexOf("\n") + 1;
  const col = [...source.slice(lineStart, offset)].length;
  const text = source.split("\n")[line - 1] ?? "";
  return `ERROR: <input>:${line}:${col + 1}: ${message}\n | ${text}\n | ${".".repeat(col)}^`;
}

export function visit(node: unknown, f: (n: ASTNode) => void): void {
  if (Array.isArray(node)) {
    for (const x of node) visit(x, f);
    return;
  }
  if (typeof node !== "object" || node === null || !("op" in node)) return;
  f(node as ASTNode);
  visit((node as unknown as { args: unknown }).args, f);
}

/** Routes `matches` to RE2 and returns the first constant pattern RE2 refuses. */
function useRe2(ast: ASTNode): string | undefined {
  let bad: string | undefined;
  visit(ast, (n) => {
    const args = n.args as unknown[];
    if ((n.op === "rcall" || n.op === "call") && args[0] === "matches") {
      args[0] = RE2_MATCHES;
      const params = args[n.op === "rcall" ? 2 : 1] as ASTNode[];
      const pattern = params[params.length - 1];
      if (pattern?.op === "value" && typeof pattern.args === "string")
        bad ??= re2SyntaxError(pattern.args as string);
    }
  });
  return bad;
}

/**
 * cel-go tests presence on any selection, `has(self.items[0].x)` included; the evaluator only on a
 * chain of selections from a variable. Such a test is the same as an optional selection's
 * presence, `self.items[0].?x.hasValue()`: the source is rewritten so (later columns shift). So is
 * a test of a name in backticks, `` has(self.m.`a-b`) `` as `self.m[?"a-b"].hasValue()`.
 */
function presenceOnAnyOperand(
  ast: ASTNode,
  source: string,
  quoted: (index: ASTNode) => boolean,
): string | undefined {
  const edits: { start: number; end: number; text: string }[] = [];
  visit(ast, (n) => {
    if (n.op !== "call") return;
    const [name, params] = n.args as [unknown, ASTNode[]];
    const arg = params?.[0];
    if (name !== "has") return;
    // A name in backticks read as an index (backticks.ts): its presence is the optional index's.
    if (arg?.op === "[]" && quoted(arg)) {
      const [operand, key] = arg.args as [ASTNode, ASTNode];
      const text = `${source.slice(operand.start, operand.end)}[?${source.slice(key.start, key.end)}].hasValue()`;
      edits.push({ start: n.start, end: n.end, text });
      return;
    }
    if (arg?.op !== ".") return;
    let base = (arg.args as [ASTNode, string])[0];
    while (base.op === "." || base.op === ".?") base = (base.args as [ASTNode, string])[0];
    if (base.op === "id") return;
    const [operand, field] = arg.args as [ASTNode, string];
    const text = `${source.slice(operand.start, operand.end)}.?${field}.hasValue()`;
    edits.push({ start: n.start, end: n.end, text });
  });
  if (edits.length === 0) return undefined;
  let out = source;
  let limit = source.length;
  for (const e of edits.sort((a, b) => b.start - a.start)) {
    // A test nested in another's operand is rewritten with it.
    if (e.end > limit) continue;
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
    limit = e.start;
  }
  return out;
}

/** The parsed expression and the text parsed (backticks and presence tests rewritten). */
function parse(
  env: Environment,
  original: string,
): { parsed: ReturnType<Environment["parse"]>; text: string } {
  const unquoted = withoutBackticks(original);
  const text = unquoted.source;
  const parsed = env.parse(text);
  const quoted = (index: ASTNode) =>
    original.charAt(unquoted.original((index.args as [ASTNode])[0].end)) === ".";
  const rewritten = presenceOnAnyOperand(parsed.ast, text, quoted);
  return rewritten === undefined ? { parsed, text } : { parsed: env.parse(rewritten), text: rewritten };
}

export function compileExpression(env: Environment, source: string): Compiled {
  // Offsets of the parsed text, in the source's columns.
  const at = (offset: number) => withoutBackticks(source).original(offset);
  let parsed: ReturnType<Environment["parse"]>;
  let text: string;
  try {
    ({ parsed, text } = parse(env, source));
  } catch (e) {
    const err = e as LocatedError;
    return { ok: false, error: celGoIssue(source, at(err.range?.start ?? 0), celGoMessage(err, true)) };
  }
  const misused = misusedMacro(parsed.ast);
  if (misused) {
    const message = `undeclared reference to '${misused.name}' (in container '')`;
    return { ok: false, error: celGoIssue(source, at(nodeOffset(text, misused.node)), message) };
  }
  const badPattern = useRe2(parsed.ast);
  const checked = parsed.check();
  if (!checked.valid) {
    const err = checked.error as LocatedError;
    const message = celGoMessage(err, false);
    return { ok: false, error: celGoIssue(source, at(celGoOffset(text, err, message)), message) };
  }
  if (badPattern !== undefined) return { ok: false, error: `program instantiation failed: ${badPattern}` };
  return { ok: true, program: { type: checked.type ?? "dyn", ast: parsed.ast, run: (vars) => parsed(vars) } };
}
