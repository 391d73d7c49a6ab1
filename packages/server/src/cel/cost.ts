/**
 * A conservative cost estimate of a CEL expression, in the units of cel-go's
 * cost model (one unit per operation, a tenth per character compared or
 * copied, comprehensions multiplied by their range's size), computed from the
 * sizes of the values it reads. With a schema's sizes it is the static estimate
 * a CRD's rules must stay under; with the sizes of the object being validated
 * it bounds what evaluating the rule can cost, so a rule that would run past
 * the per-call limit is stopped before it runs. It does not reproduce cel-go's
 * numbers exactly (docs/divergences.md).
 */
import type { ASTNode } from "@marcbachmann/cel-js";
import { ABSENT, maxShape, type Shape, UNKNOWN } from "./sizes.js";

/**
 * A size cel-go cannot bound (a converted value's string form, a map value selected by name, a dyn):
 * its estimator takes the largest integer, which makes any traversal of it over every budget.
 */
const UNBOUNDED: Shape = { size: 2 ** 64 };
/** A scope entry marking an estimate on actual values (admission expressions at request time). */
export const RUNTIME_SCOPE = "#runtime";
/** The longest string a number, bool, timestamp or duration converts to. */
const CONVERTED: Shape = { size: 32 };
/** Calls whose cost grows with their arguments' size (parsing or scanning them). */
const LINEAR_CALLS = new Set([
  "quantity",
  "isQuantity",
  "ip",
  "isIP",
  "cidr",
  "isCIDR",
  "url",
  "isURL",
  "re2Matches",
  "matches",
  "semver",
  "isSemver",
]);
/** Calls and methods giving library values; `==` on them costs 1 upstream, `!=` is not sized. */
const OPAQUE_CALLS = new Set(["ip", "cidr", "semver", "quantity", "url"]);
const OPAQUE_METHODS = new Set(["masked", "ip", "add", "sub"]);
const OPAQUE: Shape = { size: 1, opaque: true };
/** Namespaces whose functions CEL calls as methods of a constant (`ip.isCanonical(s)`). */
const NAMESPACES = new Set(["strings", "ip", "format", "lists"]);
/** upstream's regular-expression size estimate of a named format (128 characters, a quarter each). */
const FORMAT_REGEX_FACTOR = 32;

/** Upstream's limits: per evaluation, per rule statically, per CRD statically, per object at runtime. */
export const PER_CALL_LIMIT = 1_000_000;
export const STATIC_RULE_LIMIT = 10_000_000;
export const STATIC_CRD_LIMIT = 100_000_000;
export const RUNTIME_BUDGET = 10_000_000;

interface Estimate {
  readonly cost: number;
  readonly shape: Shape;
}

type Scope = ReadonlyMap<string, Shape>;

const SCALAR: Shape = { size: 1 };
const MACROS = new Set([
  "all",
  "exists",
  "exists_one",
  "existsOne",
  "map",
  "filter",
  "transformList",
  "transformMap",
  "transformMapEntry",
  "sortBy",
]);
/** Macros with an index (or key) and a value variable; all, exists and exists_one have both forms. */
const TWO_VARIABLES = new Set(["existsOne", "transformList", "transformMap", "transformMapEntry"]);
/** Functions linear in the receiver's size (strings scanned, lists walked). */
const LINEAR = new Set([
  "contains",
  "indexOf",
  "lastIndexOf",
  "lowerAscii",
  "upperAscii",
  "trim",
  "split",
  "join",
  "replace",
  "substring",
  "charAt",
  "format",
  "isSorted",
  "sum",
  "min",
  "max",
  "re2Matches",
  "find",
  "findAll",
  "slice",
  "flatten",
  "sort",
  "distinct",
  "reverse",
]);

const tenth = (n: number) => Math.ceil(n * 0.1);

function args(n: ASTNode): unknown[] {
  return n.args as unknown[];
}

function estimateAll(nodes: readonly unknown[], scope: Scope): { cost: number; shapes: Shape[] } {
  let cost = 0;
  const shapes: Shape[] = [];
  for (const x of nodes) {
    const e = estimate(x as ASTNode, scope);
    cost += e.cost;
    shapes.push(e.shape);
  }
  return { cost, shapes };
}

const variableName = (p: ASTNode | undefined) => (p?.op === "id" ? String(p.args) : "");

/**
 * A comprehension: its range's cost, then each item's body (cel-go's loop step and condition);
 * with two variables the first is a list's index (a scalar) or a map's key (as long as measured, or
 * of unknown length).
 */
function macro(name: string, recv: Estimate, params: ASTNode[], scope: Scope): Estimate {
  const n = recv.shape.size;
  const twoVariables = TWO_VARIABLES.has(name) || (params.length === 3 && name !== "map");
  const inner = new Map(scope);
  if (twoVariables) inner.set(variableName(params[0]), recv.shape.key ?? (recv.shape.map ? UNKNOWN : SCALAR));
  inner.set(variableName(params[twoVariables ? 1 : 0]), recv.shape.elem ?? UNKNOWN);
  const body = estimateAll(params.slice(twoVariables ? 2 : 1), inner);
  const cost = recv.cost + n * (body.cost + 1) + 1;
  // cel-go's static estimate sizes a comprehension's result by its range, leaving its items
  // unbounded; on actual values (CRD rules at runtime, admission) the items are what the body gives.
  const actual = scope.has(RUNTIME_SCOPE) || recv.shape.measured === true;
  const out = body.shapes.at(-1) ?? UNKNOWN;
  const item = actual ? out : UNBOUNDED;
  switch (name) {
    case "map":
    case "transformList":
      return { cost, shape: { size: n, elem: item } };
    case "transformMap":
      return { cost, shape: { size: n, elem: item, map: true } };
    case "transformMapEntry":
      return { cost, shape: { size: n, elem: actual ? (out.elem ?? UNKNOWN) : UNBOUNDED, map: true } };
    case "filter":
      return { cost, shape: { size: n, elem: recv.shape.elem ?? UNKNOWN } };
    case "sortBy":
      return { cost: cost + sortCost(n, params[1]), shape: recv.shape };
    default:
      return { cost, shape: SCALAR };
  }
}

/** cel-go's sort by keys: n² comparisons at 2 units each, a tenth more for string or bytes keys, and the call. */
function sortCost(n: number, key: ASTNode | undefined): number {
  const keyType = String((key as { checkedType?: { name?: string } } | undefined)?.checkedType?.name ?? "");
  const factor = keyType === "string" || keyType === "bytes" ? 2.1 : 2;
  return Math.ceil(n * n * factor) + 1;
}

function rcall(n: ASTNode, scope: Scope): Estimate {
  const [name, receiver, params] = args(n) as [string, ASTNode, ASTNode[]];
  if (name === "has") return { cost: 1 + estimate(params[0] as ASTNode, scope).cost, shape: SCALAR };
  const recv = estimate(receiver, scope);
  if (MACROS.has(name)) return macro(name, recv, params, scope);
  const rest = estimateAll(params, scope);
  const base = recv.cost + rest.cost + 1;
  if (name.startsWith("k8s.sets.") || (receiver.op === "id" && receiver.args === "sets")) {
    const [a, b] = rest.shapes;
    return { cost: base + (a?.size ?? 1) * (b?.size ?? 1), shape: SCALAR };
  }
  if (receiver.op === "id" && NAMESPACES.has(String(receiver.args)))
    return namespaceCall(name, base, rest.shapes[0] ?? SCALAR);
  if (name === "validate")
    return { cost: base + tenth(rest.shapes[0]?.size ?? 1) * FORMAT_REGEX_FACTOR, shape: UNBOUNDED };
  // On actual values (oldSelf of an optionalOldSelf rule, an admission object), an optional's value
  // is the value measured or its alternative, whichever is larger.
  if (OPTIONAL_VALUE.has(name) && recv.shape.measured)
    return { cost: base, shape: optionalValue(recv.shape, rest.shapes) };
  // cel-go compares a prefix or suffix: the cost is the argument's length, whatever the receiver's.
  const affix = name === "startsWith" || name === "endsWith" ? tenth(rest.shapes[0]?.size ?? 0) : 0;
  // join copies every item's characters, as upstream's estimate counts them.
  const joined = name === "join" && recv.shape.elem ? tenth(recv.shape.size * recv.shape.elem.size) : 0;
  const linear = LINEAR.has(name) ? traversal(recv.shape, rest.shapes) + joined : affix;
  return { cost: base + linear, shape: resultShape(name, recv.shape) };
}

/** ip.isCanonical parses and prints (twice a traversal); strings.quote's result has no size bound. */
function namespaceCall(name: string, base: number, arg: Shape): Estimate {
  if (name === "isCanonical") return { cost: base + Math.ceil(arg.size * 0.2), shape: SCALAR };
  // lists.range(n) has no size bound in cel-go's estimate.
  if (name === "range") return { cost: base, shape: { ...UNBOUNDED, elem: SCALAR } };
  return { cost: base, shape: name === "quote" ? UNBOUNDED : SCALAR };
}

/** The cost of walking a receiver (a list's items, a string's characters against the arguments). */
function traversal(recv: Shape, params: readonly Shape[]): number {
  if (recv.elem) return recv.size;
  const argSize = params.reduce((m, s) => Math.max(m, s.size), 0);
  return tenth(recv.size) * Math.max(1, tenth(argSize));
}

const SAME_SIZE = new Set([
  "lowerAscii",
  "upperAscii",
  "trim",
  "substring",
  "replace",
  "slice",
  "sort",
  "distinct",
  "reverse",
]);
/**
 * An optional's value has no size bound in cel-go's static estimate; on actual values (a measured
 * optional, as `object.metadata.?labels`) it is the value itself or the alternative, whichever is
 * larger, as cel-go's runtime cost counts the values it meets.
 */
const OPTIONAL_VALUE = new Set(["orValue", "value", "or"]);

/** A measured optional's value: the larger of the value and its alternatives, a map if either is. */
function optionalValue(recv: Shape, alternatives: readonly Shape[]): Shape {
  const map = recv.map === true || alternatives.some((a) => a.map === true);
  const shape = alternatives.reduce((m, a) => maxShape(m, a), recv);
  return map ? { ...shape, map } : shape;
}

/** The shape of a method's result: strings keep their bound, lists give items, counts are scalars. */
function resultShape(name: string, recv: Shape): Shape {
  if (SAME_SIZE.has(name)) return recv;
  if (OPAQUE_METHODS.has(name)) return OPAQUE;
  if (OPTIONAL_VALUE.has(name)) return recv.map ? { ...UNBOUNDED, map: true } : UNBOUNDED;
  if (name === "split" || name === "findAll") return { size: recv.size, elem: recv };
  if ((name === "min" || name === "max") && recv.elem) return recv.elem;
  if (name === "join") return { size: recv.size * ((recv.elem?.size ?? 0) + 1) };
  if (name === "format") return UNBOUNDED;
  return SCALAR;
}

function call(n: ASTNode, scope: Scope): Estimate {
  const [name, params] = args(n) as [string, ASTNode[]];
  if (name === "has") return { cost: 1, shape: SCALAR };
  const { cost, shapes } = estimateAll(params, scope);
  const first = shapes[0] ?? SCALAR;
  const linear = LINEAR_CALLS.has(name) ? shapes.reduce((m, s) => m + tenth(s.size), 0) : 0;
  const isString = params[0]?.op === "value" && typeof params[0].args === "string";
  // Evaluating on actual values (admission), a converted scalar is a short string, not an unbounded one.
  const converted = scope.has(RUNTIME_SCOPE) ? (first.size > 1 ? first : CONVERTED) : UNBOUNDED;
  const shape =
    name === "string" || name === "bytes"
      ? isString
        ? first
        : converted
      : name === "dyn"
        ? first
        : OPAQUE_CALLS.has(name)
          ? OPAQUE
          : SCALAR;
  return { cost: cost + 1 + linear, shape };
}

const SCALAR_SUMS = new Set([
  "int",
  "uint",
  "double",
  "google.protobuf.Duration",
  "google.protobuf.Timestamp",
]);
/** Whether a checked `+` joins strings, bytes or lists (its cost grows with them) rather than adding. */
const concatenates = (n: ASTNode) =>
  !SCALAR_SUMS.has(String((n as { checkedType?: { name?: string } }).checkedType?.name ?? ""));

function binary(n: ASTNode, scope: Scope): Estimate {
  const { cost, shapes } = estimateAll(args(n), scope);
  const [a = SCALAR, b = SCALAR] = shapes;
  if (n.op === "+" && !concatenates(n)) return { cost: cost + 1, shape: SCALAR };
  if (n.op === "+")
    return {
      cost: cost + 1 + tenth(a.size + b.size),
      shape: { size: a.size + b.size, ...(a.elem ? { elem: a.elem } : {}) },
    };
  if (n.op === "in") return { cost: cost + 1 + (b.map ? 0 : b.size), shape: SCALAR };
  if (n.op === "!=" && (a.opaque || b.opaque)) return { cost: cost + 1 + UNBOUNDED.size, shape: SCALAR };
  if (n.op === "==" || n.op === "!=" || n.op === "<" || n.op === "<=" || n.op === ">" || n.op === ">=")
    return { cost: cost + 1 + tenth(Math.min(a.size, b.size)), shape: SCALAR };
  return { cost: cost + 1, shape: SCALAR };
}

/** The estimated cost and result shape of an expression, given the shapes of its variables. */
export function estimate(n: ASTNode, scope: Scope): Estimate {
  switch (n.op) {
    case "value":
      return { cost: 0, shape: typeof n.args === "string" ? { size: n.args.length } : SCALAR };
    case "id":
      return { cost: 1, shape: scope.get(String(n.args)) ?? UNKNOWN };
    case ".":
    case ".?": {
      const [recv, field] = args(n) as [ASTNode, string];
      const e = estimate(recv, scope);
      // cel-go finds sizes by path: a field of an object type has one, a map value selected by name has none.
      const known = e.shape.fields?.[field];
      if (known) return { cost: e.cost + 1, shape: known };
      return { cost: e.cost + 1, shape: e.shape.measured ? (e.shape.elem ?? ABSENT) : UNBOUNDED };
    }
    case "[]":
    case "[?]": {
      const { cost, shapes } = estimateAll(args(n), scope);
      return { cost: cost + 1, shape: shapes[0]?.elem ?? UNKNOWN };
    }
    case "rcall":
      return rcall(n, scope);
    case "call":
      return call(n, scope);
    case "list": {
      const { cost, shapes } = estimateAll(args(n), scope);
      const elem = shapes.reduce<Shape>((m, s) => (s.size > m.size ? s : m), { size: 0 });
      return { cost: cost + 1, shape: { size: shapes.length, elem } };
    }
    case "map": {
      const entries = args(n) as [ASTNode, ASTNode][];
      const { cost, shapes } = estimateAll(entries.flat(), scope);
      // A literal's values bound its elements (an empty one has none); `in` looks its keys up.
      const elem = shapes
        .filter((_, i) => i % 2 === 1)
        .reduce<Shape>((m, s) => (s.size > m.size ? s : m), ABSENT);
      return { cost: cost + 1, shape: { size: entries.length, elem, map: true } };
    }
    case "?:":
    case "&&":
    case "||":
    case "!_":
    case "-_": {
      const list = Array.isArray(n.args) ? n.args : [n.args];
      const { cost, shapes } = estimateAll(list, scope);
      return { cost, shape: shapes.at(-1) ?? SCALAR };
    }
    default:
      return binary(n, scope);
  }
}

/** The cost of an expression with `self` (and `oldSelf`) of the given shape. */
export function costOf(ast: ASTNode, self: Shape, oldSelf: Shape = self): number {
  return estimate(
    ast,
    new Map([
      ["self", self],
      ["oldSelf", oldSelf],
    ]),
  ).cost;
}

/** Upstream's wording of how far a cost is over its limit. */
export function overBudget(what: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const text =
    factor > 100 ? "more than 100x" : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${what} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
