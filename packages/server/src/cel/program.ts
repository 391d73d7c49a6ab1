/**
 * Compiling one CEL expression in an environment: parse, route `matches` to
 * RE2, type-check, and report failures in cel-go's format
 * (`ERROR: <input>:1:5: undefined field 'foo'` plus the source line and a caret),
 * translating the evaluator's wording where cel-go's is known.
 */
import type { ASTNode, Environment } from "@marcbachmann/cel-js";
import { RE2_MATCHES, re2SyntaxError } from "./library/regex.js";

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

/** Where cel-go points: at the dot of a selection, at the operator of an operation. */
function celGoOffset(source: string, err: LocatedError, message: string): number {
  const start = err.range?.start ?? 0;
  if (message.startsWith("undefined field")) return start - 1;
  const left = Array.isArray(err.node?.args) ? (err.node.args[0] as { range?: { end: number } }) : undefined;
  const op = err.node?.op;
  if (message.startsWith("found no matching overload for '_") && op && left?.range) {
    const at = source.indexOf(op, left.range.end);
    if (at >= 0) return at;
  }
  // A call: at the parenthesis after the function's name.
  if (message.startsWith("found no matching overload for '") && (op === "call" || op === "rcall")) {
    const args = err.node?.args as [string, { range?: { end: number } }];
    const from = op === "rcall" ? (args[1]?.range?.end ?? start) : start;
    const at = source.indexOf("(", source.indexOf(args[0], from) + args[0].length);
    if (at >= 0) return at;
  }
  return start;
}

/** Namespaces the library functions are declared under (`strings.quote` is `k8s.strings.quote`). */
const NAMESPACE_TYPES = new Set(["k8s.strings", "k8s.ip", "k8s.format", "k8s.sets", "k8s.lists"]);
/** cel-go's names of types: list(int), duration, timestamp. */
const goType = (t: string) =>
  t
    .replaceAll("<", "(")
    .replaceAll(">", ")")
    .replaceAll("google.protobuf.Duration", "duration")
    .replaceAll("google.protobuf.Timestamp", "timestamp");

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
  if (parse) return `Syntax error: ${first.charAt(0).toLowerCase()}${first.slice(1)}`;
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
 * presence, `self.items[0].?x.hasValue()`: the source is rewritten so (later columns shift).
 */
function presenceOnAnyOperand(ast: ASTNode, source: string): string | undefined {
  const edits: { start: number; end: number; text: string }[] = [];
  visit(ast, (n) => {
    if (n.op !== "call") return;
    const [name, params] = n.args as [unknown, ASTNode[]];
    const arg = params?.[0];
    if (name !== "has" || arg?.op !== ".") return;
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

/**
 * cel-go accepts a field name in backticks; the evaluator does not. A plain identifier in backticks
 * is written without them (spaces keep the columns); other names stay a syntax error here.
 */
const withoutBackticks = (source: string) =>
  source.replace(
    /\.(\s*)`([A-Za-z_][A-Za-z0-9_]*)`/g,
    (_, space: string, name: string) => `.${space} ${name} `,
  );

function parse(env: Environment, original: string): ReturnType<Environment["parse"]> {
  const source = original.includes("`") ? withoutBackticks(original) : original;
  const parsed = env.parse(source);
  const rewritten = presenceOnAnyOperand(parsed.ast, source);
  return rewritten === undefined ? parsed : env.parse(rewritten);
}

export function compileExpression(env: Environment, source: string): Compiled {
  let parsed: ReturnType<Environment["parse"]>;
  try {
    parsed = parse(env, source);
  } catch (e) {
    const err = e as LocatedError;
    return { ok: false, error: celGoIssue(source, err.range?.start ?? 0, celGoMessage(err, true)) };
  }
  const badPattern = useRe2(parsed.ast);
  const checked = parsed.check();
  if (!checked.valid) {
    const err = checked.error as LocatedError;
    const message = celGoMessage(err, false);
    return { ok: false, error: celGoIssue(source, celGoOffset(source, err, message), message) };
  }
  if (badPattern !== undefined) return { ok: false, error: `program instantiation failed: ${badPattern}` };
  return { ok: true, program: { type: checked.type ?? "dyn", ast: parsed.ast, run: (vars) => parsed(vars) } };
}
