/**
 * matchConditions of admission webhooks: the CEL environment they compile in (object, oldObject,
 * request and authorizer, as dyn — the admission policy environment will unify this), and their
 * validation when a configuration is written: a qualified, unique name and an expression that
 * compiles to bool, with kube-apiserver's messages.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { qualifiedNameErrors } from "../../api/metadata-validation.js";
import type { FieldError } from "../../api/status.js";
import { baseEnvironment } from "../../cel/environment.js";
import { type Compiled, compileExpression } from "../../cel/program.js";

type Json = Record<string, unknown>;
const MAX_CONDITIONS = 64;

let env: Environment | undefined;

function environment(): Environment {
  env ??= baseEnvironment()
    .registerVariable("object", "dyn")
    .registerVariable("oldObject", "dyn")
    .registerVariable("request", "dyn")
    .registerVariable("authorizer", "dyn");
  return env;
}

const cache = new Map<string, Compiled>();

/** The compiled expression (cached: configurations are read on every request). */
export function compileMatchCondition(expression: string): Compiled {
  let compiled = cache.get(expression);
  if (!compiled) {
    compiled = compileExpression(environment(), expression);
    if (cache.size > 1000) cache.clear();
    cache.set(expression, compiled);
  }
  return compiled;
}

export function matchConditionErrors(conditions: unknown, field: string): FieldError[] {
  if (!Array.isArray(conditions)) return [];
  const errs: FieldError[] = [];
  if (conditions.length > MAX_CONDITIONS)
    errs.push({
      type: "FieldValueTooLong",
      field,
      detail: `must have at most ${MAX_CONDITIONS} items`,
      value: conditions.length,
    });
  const seen = new Set<string>();
  conditions.forEach((c: Json, i) => {
    const at = `${field}[${i}]`;
    const name = String(c?.name ?? "");
    if (name === "") errs.push({ type: "FieldValueRequired", field: `${at}.name`, detail: "" });
    else if (seen.has(name))
      errs.push({ type: "FieldValueDuplicate", field: `${at}.name`, value: name, detail: "" });
    else errs.push(...qualifiedNameErrors(name, `${at}.name`));
    seen.add(name);
    const expression = String(c?.expression ?? "");
    if (expression === "") {
      errs.push({ type: "FieldValueRequired", field: `${at}.expression`, detail: "" });
      return;
    }
    const compiled = compileMatchCondition(expression);
    if (!compiled.ok)
      errs.push({
        type: "FieldValueInvalid",
        field: `${at}.expression`,
        value: expression,
        detail: `compilation failed: ${compiled.error}`,
      });
    else if (compiled.program.type !== "bool" && compiled.program.type !== "dyn")
      errs.push({
        type: "FieldValueInvalid",
        field: `${at}.expression`,
        value: expression,
        detail: `must evaluate to bool but got ${compiled.program.type}`,
      });
  });
  return errs;
}
