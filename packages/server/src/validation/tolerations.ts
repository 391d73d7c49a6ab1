/**
 * Tolerations (validateTolerations upstream): a pod's `spec.tolerations` and a RuntimeClass's
 * `scheduling.tolerations` share these rules — a label-name key, Exists when the key is empty,
 * NoExecute when tolerationSeconds is set, a label value for Equal and none for Exists, and a
 * known effect when one is given.
 */
import {
  type FieldError,
  invalid,
  isSet,
  type Json,
  listAt,
  notSupported,
  obj,
  str,
} from "./field-errors.js";
import { labelValueProblems } from "./object-meta.js";
import { labelKeyErrors } from "./selector-rules.js";

const OPERATORS = ["Equal", "Exists"];
/**
 * Lt and Gt belong to the TaintTolerationComparisonOperators feature, off in 1.37: refused, with a
 * list that names them too.
 */
const COMPARISON_OPERATORS = ["Lt", "Gt"];
const EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/** validateTaintEffect with an empty effect allowed (a toleration's empty effect matches all). */
function effectErrors(effect: string, field: string): FieldError[] {
  if (effect === "" || EFFECTS.includes(effect)) return [];
  return [notSupported(field, effect, EFFECTS)];
}

function operatorErrors(t: Json, at: string): FieldError[] {
  const operator = str(t.operator);
  const value = str(t.value);
  if (operator === "Equal" || operator === "")
    return labelValueProblems(value).map((m) => invalid(`${at}.operator`, value, m));
  if (operator === "Exists")
    return value === ""
      ? []
      : [invalid(`${at}.operator`, value, "value must be empty when `operator` is 'Exists'")];
  if (COMPARISON_OPERATORS.includes(operator))
    return [notSupported(`${at}.operator`, operator, [...OPERATORS, ...COMPARISON_OPERATORS])];
  return [notSupported(`${at}.operator`, operator, OPERATORS)];
}

function tolerationErrors(t: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  const key = str(t.key);
  if (key !== "") out.push(...labelKeyErrors(key, `${at}.key`));
  if (key === "" && str(t.operator) !== "Exists")
    out.push(
      invalid(
        `${at}.operator`,
        str(t.operator),
        'operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ),
    );
  if (isSet(t.tolerationSeconds) && str(t.effect) !== "NoExecute")
    out.push(
      invalid(`${at}.effect`, str(t.effect), "effect must be 'NoExecute' when `tolerationSeconds` is set"),
    );
  out.push(...operatorErrors(t, at));
  out.push(...effectErrors(str(t.effect), `${at}.effect`));
  return out;
}

/** validateTolerations: each toleration of the list at `at`. */
export function tolerationsErrors(tolerations: unknown, at: string): FieldError[] {
  return listAt(tolerations).flatMap((raw, i) => tolerationErrors(obj(raw), `${at}[${i}]`));
}
