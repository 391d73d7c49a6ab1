/**
 * Evaluates a CRD's compiled rules against an object (and its old version on
 * update) the way the apiserver does: every rule of every node holding a value
 * (null values are skipped), transition rules only where an old value pairs
 * with the new one unless optionalOldSelf, failures reported with the rule's
 * message, messageExpression, reason and fieldPath, failures of unchanged
 * values ratcheted away, and evaluation bounded: a rule whose cost on this
 * object is over the per-call limit is not run, and the object's rules share
 * the runtime budget; either stops all further rules, as upstream.
 */
import { Optional } from "@marcbachmann/cel-js";
import type { FieldError } from "../api/status.js";
import { isObject } from "../crd/json-schema.js";
import { Correlated, oldItem, type Ratchet, ratchetIndex, ratchetKey, shouldRatchet } from "./correlation.js";
import { costOf, PER_CALL_LIMIT, RUNTIME_BUDGET } from "./cost.js";
import { type CompiledRule, type RuleNode, ruleErrorString } from "./rule-tree.js";
import { type Shape, shapeOfValue } from "./sizes.js";

/** Longest message a messageExpression may produce (upstream's MaxEvaluatedMessageExpressionSizeBytes). */
const MAX_MESSAGE_BYTES = 5 * 1024;

/** What every rule of one node reads, computed once for the node. */
class NodeValues {
  private cel?: { self: unknown; oldSelf: unknown };
  private shapes?: [Shape, Shape];
  constructor(
    private readonly node: RuleNode,
    readonly obj: unknown,
    readonly old: unknown,
  ) {}
  get vars(): { self: unknown; oldSelf: unknown } {
    this.cel ??= {
      self: this.node.decl.toCel(this.obj),
      oldSelf: this.old === undefined ? undefined : this.node.decl.toCel(this.old),
    };
    return this.cel;
  }
  get sizes(): [Shape, Shape] {
    this.shapes ??= [shapeOfValue(this.obj), shapeOfValue(this.old)];
    return this.shapes;
  }
}

interface Run {
  budget: number;
  stopped: boolean;
  readonly errs: FieldError[];
  /** The most cost the rules may spend in this turn of the event loop. */
  readonly inlineLimit: number;
}

/** The rules would spend more than the inline limit: they are to be run off the event loop. */
class TooCostlyInline extends Error {}

const child = (path: string, k: string) => (path === "" ? k : `${path}.${k}`);
const shown = (path: string) => (path === "" ? "<nil>" : path);

/** The rule failures of an object; `old` is the stored object on update. */
export function validateRules(
  root: RuleNode,
  obj: unknown,
  old: unknown,
  inlineLimit = Infinity,
): FieldError[] {
  const run: Run = { budget: RUNTIME_BUDGET, stopped: false, errs: [], inlineLimit };
  const ratchet: Ratchet = old === undefined ? {} : { current: new Correlated(obj, old) };
  walk(root, "", obj, old, ratchet, run);
  return run.errs;
}

/**
 * The rule failures of an object, or undefined as soon as the rules' estimated costs on it add up
 * to more than `inlineLimit` (before running the rule that would pass it): the caller then runs
 * validateRules where a long evaluation holds no other client (rules-pool.ts), with the same answer.
 */
export function validateRulesWithin(
  root: RuleNode,
  obj: unknown,
  old: unknown,
  inlineLimit: number,
): FieldError[] | undefined {
  try {
    return validateRules(root, obj, old, inlineLimit);
  } catch (e) {
    if (e instanceof TooCostlyInline) return undefined;
    throw e;
  }
}

function walk(node: RuleNode, path: string, obj: unknown, old: unknown, ratchet: Ratchet, run: Run): void {
  if (obj === null || obj === undefined || run.stopped) return;
  const values = new NodeValues(node, obj, old);
  for (const rule of node.rules) {
    evaluate(node, rule, path, values, ratchet, run);
    if (run.stopped) return;
  }
  if (Array.isArray(obj) && node.items) {
    const oldList = Array.isArray(old) ? old : [];
    obj.forEach((item, i) => {
      const oldV = oldItem(node.schema, oldList, item, false);
      if (node.items)
        walk(node.items, `${path}[${i}]`, item, oldV, ratchetIndex(ratchet, node.schema, i), run);
    });
    return;
  }
  if (!isObject(obj)) return;
  const oldMap = isObject(old) ? old : undefined;
  for (const [k, v] of Object.entries(obj)) {
    const sub = node.additionalProperties ?? node.properties.get(k);
    if (!sub) continue;
    const at = node.additionalProperties ? `${path}[${k}]` : child(path, k);
    walk(sub, at, v, oldMap?.[k], ratchetKey(ratchet, k), run);
  }
}

/** Takes an evaluation's estimated cost from the object's budget; what stops it instead, if anything. */
function charge(run: Run, cost: number): "call" | "budget" | undefined {
  if (cost > PER_CALL_LIMIT) return "call";
  if (cost > run.budget) return "budget";
  if (RUNTIME_BUDGET - run.budget + cost > run.inlineLimit) throw new TooCostlyInline();
  run.budget -= cost;
  return undefined;
}

function evaluate(
  node: RuleNode,
  rule: CompiledRule,
  path: string,
  values: NodeValues,
  ratchet: Ratchet,
  run: Run,
): void {
  const { obj, old } = values;
  const optionalOld = rule.source.optionalOldSelf === true;
  if (rule.usesOldSelf && old === undefined && !optionalOld) return;
  // Evaluation and cost errors show the node's schema type, failed rules the value itself.
  const type = typeof node.schema.type === "string" ? node.schema.type : "";
  const invalid = (detail: string, at = path): FieldError => ({
    type: "FieldValueInvalid",
    field: shown(at),
    value: type,
    detail,
  });
  const stop = charge(run, costOf(rule.program.ast, ...values.sizes));
  if (stop) {
    run.errs.push(
      invalid(
        stop === "call"
          ? `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule.source)}`
          : "validation failed due to running out of cost budget, no further validation rules will be run",
      ),
    );
    run.stopped = true;
    return;
  }
  const { self, oldSelf } = values.vars;
  const vars = { self, oldSelf: optionalOld ? Optional.of(oldSelf) : oldSelf };
  let result: unknown;
  try {
    result = rule.program.run(vars);
  } catch (e) {
    run.errs.push(invalid(evaluationError(e, ruleErrorString(rule.source))));
    return;
  }
  if (result === true) return;
  const at = rule.fieldPath === "" ? path : child(path, rule.fieldPath);
  const add = (e: FieldError) => {
    if (rule.usesOldSelf || !shouldRatchet(ratchet)) run.errs.push(e);
  };
  // A messageExpression's cost comes from the same budget; running out of it stops the rules too.
  const messageStop = rule.message && charge(run, costOf(rule.message.ast, ...values.sizes));
  if (messageStop) {
    add(
      invalid(
        messageStop === "call"
          ? `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(rule.source.messageExpression ?? "")}`
          : "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run",
        at,
      ),
    );
    run.stopped = true;
    return;
  }
  const detail = message(rule, { self, oldSelf }) ?? defaultMessage(rule);
  add(failure(rule.source.reason, shown(at), shownValue(obj), detail));
}

/** The value upstream shows in the cause: scalars as they are, objects and lists left out. */
function shownValue(v: unknown): unknown {
  return typeof v === "object" && v !== null ? undefined : v;
}

function failure(reason: string | undefined, field: string, value: unknown, detail: string): FieldError {
  const shown = value === undefined ? {} : { value };
  switch (reason) {
    case "FieldValueForbidden":
      return { type: "FieldValueForbidden", field, detail };
    case "FieldValueRequired":
      return { type: "FieldValueRequired", field, detail };
    case "FieldValueDuplicate":
      return { type: "FieldValueDuplicate", field, ...shown, detail: "" };
    default:
      return { type: "FieldValueInvalid", field, ...shown, detail };
  }
}

function defaultMessage(rule: CompiledRule): string {
  const m = rule.source.message;
  return m ? m.trim() : `failed rule: ${ruleErrorString(rule.source)}`;
}

/** The messageExpression's text, or undefined when upstream falls back to the static message. */
function message(rule: CompiledRule, vars: Record<string, unknown>): string | undefined {
  if (!rule.message) return undefined;
  let v: unknown;
  try {
    v = rule.message.run(vars);
  } catch {
    return undefined;
  }
  if (typeof v !== "string") return undefined;
  const trimmed = v.trim();
  if (trimmed === "" || trimmed.includes("\n") || Buffer.byteLength(trimmed) > MAX_MESSAGE_BYTES)
    return undefined;
  return trimmed;
}

/** cel-go's wording of an evaluation error, in upstream's sentence. */
function evaluationError(e: unknown, rule: string): string {
  const first = ((e as Error).message ?? String(e)).split("\n")[0] ?? "";
  if (first.startsWith("no such overload"))
    return `'no such overload': call arguments did not match a supported operator, function or macro signature for rule: ${rule}`;
  return `${celGoText(first)} evaluating rule: ${rule}`;
}

export function celGoText(first: string): string {
  const bounds = /^No such key: index out of bounds, index (-?\d+) >= size (\d+)$/.exec(first);
  if (bounds) return `index out of bounds: ${bounds[1]}`;
  const key = /^No such key: (.*)$/.exec(first);
  if (key) return `no such key: ${key[1]}`;
  return /^integer overflow/.test(first) ? "integer overflow" : first;
}
