/** A Job's podFailurePolicy rules: an action, exactly one of onExitCodes and onPodConditions, each valid. */
import {
  duplicate,
  type FieldError,
  invalid,
  isObject,
  listAt,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "../../validation/field-errors.js";
import { qualifiedNameProblems } from "../../validation/object-meta.js";

type Json = Record<string, unknown>;

const ACTIONS = ["Count", "FailIndex", "FailJob", "Ignore"];
const OPERATORS = ["In", "NotIn"];
const STATUSES = ["False", "True", "Unknown"];
const validValues = (xs: readonly string[]) =>
  `valid values: [${xs.map((x) => JSON.stringify(x)).join(" ")}]`;
/** field.OmitValueType: the message leaves the value out. */
const OMITTED = undefined;

function exitCodeErrors(rule: Json, at: string, containers: ReadonlySet<string>): FieldError[] {
  const out: FieldError[] = [];
  const operator = stringAt(rule.operator);
  if (operator === "") out.push(required(`${at}.operator`, validValues(OPERATORS)));
  else if (!OPERATORS.includes(operator)) out.push(notSupported(`${at}.operator`, operator, OPERATORS));
  if (typeof rule.containerName === "string" && !containers.has(rule.containerName))
    out.push(
      invalid(
        `${at}.containerName`,
        rule.containerName,
        "must be one of the container or initContainer names in the pod template",
      ),
    );
  const values = listAt(rule.values).map((v) => (typeof v === "number" ? v : 0));
  if (values.length === 0)
    out.push(
      invalid(`${at}.values`, rule.values === undefined ? null : [], "at least one value is required"),
    );
  const seen = new Set<number>();
  values.forEach((v, j) => {
    if (operator === "In" && v === 0)
      out.push(invalid(`${at}.values[${j}]`, v, "must not be 0 for the In operator"));
    if (seen.has(v)) out.push(duplicate(`${at}.values[${j}]`, v));
    else seen.add(v);
  });
  if (values.some((v, j) => j > 0 && (values[j - 1] as number) > v))
    out.push(invalid(`${at}.values`, values, "must be ordered"));
  return out;
}

function podConditionErrors(patterns: unknown[], at: string): FieldError[] {
  const out: FieldError[] = [];
  patterns.forEach((raw, j) => {
    const p = objectAt(raw);
    const type = stringAt(p.type);
    for (const m of qualifiedNameProblems(type)) out.push(invalid(`${at}[${j}].type`, type, m));
    const status = stringAt(p.status);
    if (status === "") out.push(required(`${at}[${j}].status`, validValues(STATUSES)));
    else if (!STATUSES.includes(status)) out.push(notSupported(`${at}[${j}].status`, status, STATUSES));
  });
  return out;
}

function ruleErrors(spec: Json, rule: Json, at: string, containers: ReadonlySet<string>): FieldError[] {
  const out: FieldError[] = [];
  const action = stringAt(rule.action);
  if (action === "") out.push(required(`${at}.action`, validValues(ACTIONS)));
  else if (action === "FailIndex") {
    if (spec.backoffLimitPerIndex == null)
      out.push(invalid(`${at}.action`, action, "requires the backoffLimitPerIndex to be set"));
  } else if (!ACTIONS.includes(action)) out.push(notSupported(`${at}.action`, action, ACTIONS));
  const exitCodes = isObject(rule.onExitCodes);
  const conditions = listAt(rule.onPodConditions);
  if (exitCodes) out.push(...exitCodeErrors(rule.onExitCodes as Json, `${at}.onExitCodes`, containers));
  if (conditions.length > 0) out.push(...podConditionErrors(conditions, `${at}.onPodConditions`));
  if (exitCodes && conditions.length > 0)
    out.push(invalid(at, OMITTED, "specifying both OnExitCodes and OnPodConditions is not supported"));
  if (!exitCodes && conditions.length === 0)
    out.push(invalid(at, OMITTED, "specifying one of OnExitCodes and OnPodConditions is required"));
  return out;
}

/** validatePodFailurePolicy for `spec.podFailurePolicy` (or under a CronJob's job template). */
export function podFailurePolicyErrors(spec: Json, at: string): FieldError[] {
  const podSpec = objectAt(objectAt(spec.template).spec);
  const containers = new Set(
    [...listAt(podSpec.containers), ...listAt(podSpec.initContainers)].map((c) => stringAt(objectAt(c).name)),
  );
  return listAt(objectAt(spec.podFailurePolicy).rules).flatMap((r, i) =>
    ruleErrors(spec, objectAt(r), `${at}.rules[${i}]`, containers),
  );
}
