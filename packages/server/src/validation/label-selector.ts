/**
 * Workload selectors beyond their validation (selector-rules.ts): whether a converted selector
 * matches a template's labels, the selector as upstream renders it in a message, and its
 * immutability on update.
 */
import {
  entriesOf,
  type FieldError,
  goJson,
  isObject,
  listAt,
  objectAt,
  stringAt,
  unchanged,
} from "./field-errors.js";
import { selectorConversionFails } from "./selector-rules.js";

export { labelMapErrors, labelSelectorErrors, selectorIsEmpty } from "./selector-rules.js";

type Json = Record<string, unknown>;

/** Whether LabelSelectorAsSelector turns the selector into a selector without an error. */
export const selectorConverts = (selector: unknown): boolean => !selectorConversionFails(selector);

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
