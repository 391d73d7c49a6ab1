/**
 * Rules the apps workloads share (pkg/apis/apps validation): a required, valid, non-empty selector
 * that decides whether the template is checked against it, int-or-percent rollout parameters, and
 * the non-negative counters.
 */
import { type FieldError, invalid, isObject, nonNegative, objectAt } from "../../validation/field-errors.js";
import {
  labelSelectorErrors,
  renderSelector,
  selectorConverts,
  selectorIsEmpty,
  selectorMatches,
} from "../../validation/label-selector.js";

type Json = Record<string, unknown>;

export interface SelectorCheck {
  readonly errors: FieldError[];
  /** Whether LabelSelectorAsSelector accepts it (the template is checked only then). */
  readonly converts: boolean;
  /** Whether it selects the template's labels; undefined when it selects everything. */
  readonly matches: boolean | undefined;
}

/** The selector at `spec.selector`: required unless `optional`, valid, not empty (`owner` names the kind). */
export function selectorCheck(spec: Json, owner: string, optional = false): SelectorCheck {
  const selector = spec.selector;
  const errors: FieldError[] = [];
  if (!isObject(selector)) {
    if (!optional) errors.push({ type: "FieldValueRequired", field: "spec.selector", detail: "" });
  } else {
    errors.push(...labelSelectorErrors(selector, "spec.selector"));
    if (selectorIsEmpty(selector))
      errors.push(
        invalid("spec.selector", renderSelector(selector), `empty selector is invalid for ${owner}`),
      );
  }
  const labels = objectAt(objectAt(spec.template).metadata).labels;
  const everything = isObject(selector) && selectorIsEmpty(selector);
  return {
    errors,
    converts: selectorConverts(selector),
    matches: everything ? undefined : selectorMatches(selector, labels),
  };
}

/** The counters every workload spec has, where set. */
export function counterErrors(spec: Json, fields: readonly string[]): FieldError[] {
  return fields.flatMap((f) => nonNegative(`spec.${f}`, spec[f]));
}

const PERCENT = /^[0-9]+%$/;
const PERCENT_MSG =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** ValidatePositiveIntOrPercent. */
export function intOrPercentErrors(v: unknown, field: string): FieldError[] {
  if (typeof v === "string") return PERCENT.test(v) ? [] : [invalid(field, v, PERCENT_MSG)];
  return nonNegative(field, v);
}

/** getIntOrPercentValue: the percentage or the integer (a non-numeric string reads 0). */
export function intOrPercentValue(v: unknown): number {
  if (typeof v === "number") return v;
  if (typeof v !== "string") return 0;
  if (PERCENT.test(v)) return Number(v.slice(0, -1));
  return /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

/** IsNotMoreThan100Percent. */
export function atMost100Percent(v: unknown, field: string): FieldError[] {
  return typeof v === "string" && PERCENT.test(v) && Number(v.slice(0, -1)) > 100
    ? [invalid(field, v, "must not be greater than 100%")]
    : [];
}

/** An int-or-string as Go's JSON writes it inside a rendered struct (0 when unset). */
export const intOrString = (v: unknown): unknown => (v === undefined || v === null ? 0 : v);

/** A Deployment's or DaemonSet's rolling update as Go prints the internal struct (or null). */
export function rollingUpdateShown(ru: unknown): unknown {
  return isObject(ru)
    ? { MaxUnavailable: intOrString(ru.maxUnavailable), MaxSurge: intOrString(ru.maxSurge) }
    : null;
}
