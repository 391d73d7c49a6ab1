/**
 * Label selector validation as apimachinery's metav1 validation does it (matchLabels keys and
 * values, each requirement's operator, key and values), and whether the selector converts to a
 * labels.Selector at all: kinds that convert it report a failed conversion as one more error.
 */
import type { FieldError } from "../api/status.js";
import { arr, forbidden, invalid, obj, required, str, strs } from "./field-errors.js";
import { labelValueProblems, qualifiedNameProblems } from "./object-meta.js";

export interface SelectorOptions {
  /** Kept for objects stored before values were checked (upstream's AllowInvalidLabelValueInSelector). */
  readonly allowInvalidLabelValues?: boolean;
}

const OPERATORS_WITH_VALUES = new Set(["In", "NotIn"]);
const OPERATORS_WITHOUT_VALUES = new Set(["Exists", "DoesNotExist"]);

/** Errors of a label key (a qualified name) at `field`. */
export function labelKeyErrors(key: string, field: string): FieldError[] {
  return qualifiedNameProblems(key).map((m) => invalid(field, key, m));
}

/** Errors of a map of labels; every entry is reported at the map's own path, as upstream does. */
export function labelMapErrors(labels: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(obj(labels))) {
    errs.push(...labelKeyErrors(k, field));
    errs.push(...labelValueProblems(str(v)).map((m) => invalid(field, str(v), m)));
  }
  return errs;
}

function requirementErrors(req: unknown, field: string, opts: SelectorOptions): FieldError[] {
  const r = obj(req);
  const operator = str(r.operator);
  const values = strs(r.values);
  const errs: FieldError[] = [];
  if (OPERATORS_WITH_VALUES.has(operator)) {
    if (values.length === 0)
      errs.push(required(`${field}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (OPERATORS_WITHOUT_VALUES.has(operator)) {
    if (values.length > 0)
      errs.push(
        forbidden(`${field}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
      );
  } else errs.push(invalid(`${field}.operator`, operator, "not a valid selector operator"));
  errs.push(...labelKeyErrors(str(r.key), `${field}.key`));
  if (!opts.allowInvalidLabelValues)
    values.forEach((v, i) => {
      errs.push(...labelValueProblems(v).map((m) => invalid(`${field}.values[${i}]`, v, m)));
    });
  return errs;
}

/** Errors of a metav1.LabelSelector at `field`; a missing selector has none. */
export function labelSelectorErrors(sel: unknown, field: string, opts: SelectorOptions = {}): FieldError[] {
  if (sel === undefined || sel === null) return [];
  const s = obj(sel);
  const errs = labelMapErrors(s.matchLabels, `${field}.matchLabels`);
  arr(s.matchExpressions).forEach((req, i) => {
    errs.push(...requirementErrors(req, `${field}.matchExpressions[${i}]`, opts));
  });
  return errs;
}

/** Whether metav1.LabelSelectorAsSelector would fail on the selector. */
export function selectorConversionFails(sel: unknown): boolean {
  if (sel === undefined || sel === null) return false;
  const s = obj(sel);
  for (const [k, v] of Object.entries(obj(s.matchLabels)))
    if (qualifiedNameProblems(k).length > 0 || labelValueProblems(str(v)).length > 0) return true;
  for (const req of arr(s.matchExpressions)) {
    const r = obj(req);
    const operator = str(r.operator);
    const values = strs(r.values);
    if (qualifiedNameProblems(str(r.key)).length > 0) return true;
    if (OPERATORS_WITH_VALUES.has(operator) && values.length === 0) return true;
    if (OPERATORS_WITHOUT_VALUES.has(operator) && values.length > 0) return true;
    if (!OPERATORS_WITH_VALUES.has(operator) && !OPERATORS_WITHOUT_VALUES.has(operator)) return true;
    if (values.some((v) => labelValueProblems(v).length > 0)) return true;
  }
  return false;
}

/** Whether a selector would select every object (upstream's `selector.Empty()`). */
export function selectorIsEmpty(sel: unknown): boolean {
  const s = obj(sel);
  return Object.keys(obj(s.matchLabels)).length === 0 && arr(s.matchExpressions).length === 0;
}
