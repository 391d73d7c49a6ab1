/**
 * matchConditions of admission webhooks: their validation when a configuration is written — a
 * qualified, unique name and an expression that compiles to bool in the environment of admission
 * policies' match conditions (object, oldObject, typed request, authorizer; cel/admission), with
 * kube-apiserver's messages.
 */
import { qualifiedNameErrors } from "../../api/metadata-validation.js";
import type { FieldError } from "../../api/status.js";
import { compileAdmission } from "../../cel/admission/index.js";

type Json = Record<string, unknown>;
const MAX_CONDITIONS = 64;

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
    // As admission compiles them (admission/webhooks/match-conditions.ts): upstream validates both alike.
    const compiled = compileAdmission(expression, { params: false, authorizer: true, returnTypes: ["bool"] });
    if (!compiled.ok)
      errs.push({
        type: "FieldValueInvalid",
        field: `${at}.expression`,
        value: expression,
        detail: compiled.detail,
      });
  });
  return errs;
}
