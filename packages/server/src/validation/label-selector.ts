/**
 * metav1.LabelSelector in specs (workload selectors): apimachinery's ValidateLabels and
 * ValidateLabelSelector, whether LabelSelectorAsSelector would accept it, and matching a label set.
 */
import {
  entriesOf,
  type FieldError,
  forbidden,
  goJson,
  invalid,
  isObject,
  listAt,
  objectAt,
  required,
  stringAt,
  unchanged,
} from "./field-errors.js";
import { labelValueProblems, qualifiedNameProblems } from "./object-meta.js";

type Json = Record<string, unknown>;

/** ValidateLabels: every key a qualified name, every value a label value, reported at `field`. */
export function labelMapErrors(labels: unknown, field: string): FieldError[] {
  const out: FieldError[] = [];
  for (const [k, v] of entriesOf(labels)) {
    for (const msg of qualifiedNameProblems(k)) out.push(invalid(field, k, msg));
    for (const msg of labelValueProblems(v)) out.push(invalid(field, v, msg));
  }
  return out;
}

const SET_OPERATORS = new Set(["In", "NotIn"]);
const EXISTS_OPERATORS = new Set(["Exists", "DoesNotExist"]);

function requirementErrors(raw: unknown, at: string): FieldError[] {
  const r = objectAt(raw);
  const operator = stringAt(r.operator);
  const values = listAt(r.values);
  const out: FieldError[] = [];
  if (SET_OPERATORS.has(operator)) {
    if (values.length === 0)
      out.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (EXISTS_OPERATORS.has(operator)) {
    if (values.length > 0)
      out.push(
        forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
      );
  } else out.push(invalid(`${at}.operator`, operator, "not a valid selector operator"));
  const key = stringAt(r.key);
  for (const msg of qualifiedNameProblems(key)) out.push(invalid(`${at}.key`, key, msg));
  values.forEach((v, i) => {
    for (const msg of labelValueProblems(stringAt(v)))
      out.push(invalid(`${at}.values[${i}]`, stringAt(v), msg));
  });
  return out;
}

/** ValidateLabelSelector (invalid label values refused); nothing to check when unset. */
export function labelSelectorErrors(selector: unknown, field: string): FieldError[] {
  if (!isObject(selector)) return [];
  const out = labelMapErrors(selector.matchLabels, `${field}.matchLabels`);
  listAt(selector.matchExpressions).forEach((r, i) => {
    out.push(...requirementErrors(r, `${field}.matchExpressions[${i}]`));
  });
  return out;
}

/** A selector with neither matchLabels nor matchExpressions (it selects everything). */
export function selectorIsEmpty(selector: Json): boolean {
  return entriesOf(selector.matchLabels).length + listAt(selector.matchExpressions).length === 0;
}

/** Whether LabelSelectorAsSelector turns the selector into a selector without an error. */
export function selectorConverts(selector: unknown): boolean {
  if (!isObject(selector)) return true;
  for (const [k, v] of entriesOf(selector.matchLabels))
    if (qualifiedNameProblems(k).length > 0 || labelValueProblems(v).length > 0) return false;
  for (const raw of listAt(selector.matchExpressions)) {
    const r = objectAt(raw);
    const operator = stringAt(r.operator);
    const values = listAt(r.values).map(stringAt);
    if (!SET_OPERATORS.has(operator) && !EXISTS_OPERATORS.has(operator)) return false;
    if (SET_OPERATORS.has(operator) ? values.length === 0 : values.length > 0) return false;
    if (qualifiedNameProblems(stringAt(r.key)).length > 0) return false;
    if (values.some((v) => labelValueProblems(v).length > 0)) return false;
  }
  return true;
}

/** Whether a converted selector matches `labels`; an unset selector matches nothing. */
export function selectorMatches(selector: unknown, labels: unknown): boolean {
  if (!isObject(selector)) return false;
  const set = new Map(entriesOf(labels));
  for (const [k, v] of entriesOf(selector.matchLabels)) if (set.get(k) !== v) return false;
  for (const raw of listAt(selector.matchExpressions)) {
    const r = objectAt(raw);
    const key = stringAt(r.key);
    const values = listAt(r.values).map(stringAt);
    const has = set.has(key);
    const value = set.get(key) ?? "";
    const ok =
      r.operator === "In"
        ? has && values.includes(value)
        : r.operator === "NotIn"
          ? !has || !values.includes(value)
          : r.operator === "Exists"
            ? has
            : !has;
    if (!ok) return false;
  }
  return true;
}

/** The selector as upstream renders it in a message (metav1.LabelSelector's JSON field order). */
export function renderSelector(selector: unknown): unknown {
  if (!isObject(selector)) return null;
  const out: Json = {};
  if (entriesOf(selector.matchLabels).length > 0) out.matchLabels = goJson(selector.matchLabels);
  const exprs = listAt(selector.matchExpressions).map((raw) => {
    const r = objectAt(raw);
    const e: Json = { key: stringAt(r.key), operator: stringAt(r.operator) };
    if (listAt(r.values).length > 0) e.values = r.values;
    return e;
  });
  if (exprs.length > 0) out.matchExpressions = exprs;
  return out;
}

/** The selector at `spec.selector` may not change on update (rendered as upstream renders it). */
export function selectorUnchanged(spec: Json, before: Json): FieldError[] {
  return unchanged("spec.selector", spec.selector, before.selector, renderSelector(spec.selector));
}
