/**
 * A pod's affinity (validateAffinity upstream): node affinity's required node selector and
 * weighted preferences, and pod (anti-)affinity terms — their label and namespace selectors,
 * namespaces, matchLabelKeys / mismatchLabelKeys (label-keys.ts) and topology key.
 */

import {
  type FieldError,
  forbidden,
  invalid,
  isSet,
  type Json,
  listAt,
  num,
  obj,
  required,
  str,
  strs,
} from "./field-errors.js";
import { labelKeysErrors } from "./label-keys.js";
import { dns1123LabelProblems, dns1123SubdomainProblems } from "./name-formats.js";
import { labelKeyErrors, labelSelectorErrors } from "./selector-rules.js";

const BAD_OPERATOR = "not a valid selector operator";

/** ValidateNodeSelectorRequirement: the operator decides how many values; the key is a label name. */
function nodeRequirementErrors(raw: unknown, at: string): FieldError[] {
  const r = obj(raw);
  const operator = str(r.operator);
  const count = strs(r.values).length;
  const out: FieldError[] = [];
  if (operator === "In" || operator === "NotIn") {
    if (count === 0)
      out.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (operator === "Exists" || operator === "DoesNotExist") {
    if (count > 0)
      out.push(
        forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
      );
  } else if (operator === "Gt" || operator === "Lt") {
    if (count !== 1)
      out.push(required(`${at}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
  } else out.push(invalid(`${at}.operator`, operator, BAD_OPERATOR));
  out.push(...labelKeyErrors(str(r.key), `${at}.key`));
  return out;
}

/** ValidateNodeFieldSelectorRequirement: only metadata.name, with one node name. */
function nodeFieldRequirementErrors(raw: unknown, at: string): FieldError[] {
  const r = obj(raw);
  const operator = str(r.operator);
  const values = strs(r.values);
  const out: FieldError[] = [];
  if (operator === "In" || operator === "NotIn") {
    if (values.length !== 1)
      out.push(
        required(
          `${at}.values`,
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      );
  } else out.push(invalid(`${at}.operator`, operator, BAD_OPERATOR));
  if (str(r.key) !== "metadata.name")
    out.push(invalid(`${at}.key`, str(r.key), "not a valid field selector key"));
  else
    values.forEach((v, i) => {
      out.push(...dns1123SubdomainProblems(v).map((m) => invalid(`${at}.values[${i}]`, v, m)));
    });
  return out;
}

function nodeSelectorTermErrors(term: unknown, at: string): FieldError[] {
  const t = obj(term);
  return [
    ...listAt(t.matchExpressions).flatMap((r, j) => nodeRequirementErrors(r, `${at}.matchExpressions[${j}]`)),
    ...listAt(t.matchFields).flatMap((r, j) => nodeFieldRequirementErrors(r, `${at}.matchFields[${j}]`)),
  ];
}

function weightErrors(weight: unknown, at: string): FieldError[] {
  const w = num(weight);
  return w <= 0 || w > 100 ? [invalid(at, w, "must be in the range 1-100")] : [];
}

function nodeAffinityErrors(na: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  if (isSet(na.requiredDuringSchedulingIgnoredDuringExecution)) {
    const terms = listAt(obj(na.requiredDuringSchedulingIgnoredDuringExecution).nodeSelectorTerms);
    const termsAt = `${at}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
    if (terms.length === 0) out.push(required(termsAt, "must have at least one node selector term"));
    terms.forEach((term, i) => {
      out.push(...nodeSelectorTermErrors(term, `${termsAt}[${i}]`));
    });
  }
  listAt(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((raw, i) => {
    const p = obj(raw);
    const pAt = `${at}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    out.push(...weightErrors(p.weight, `${pAt}.weight`));
    out.push(...nodeSelectorTermErrors(p.preference, `${pAt}.preference`));
  });
  return out;
}

function podAffinityTermErrors(term: unknown, at: string): FieldError[] {
  const t = obj(term);
  const out: FieldError[] = [];
  out.push(...labelSelectorErrors(t.labelSelector, `${at}.labelSelector`));
  out.push(...labelSelectorErrors(t.namespaceSelector, `${at}.namespaceSelector`));
  for (const name of strs(t.namespaces))
    out.push(...dns1123LabelProblems(name).map((m) => invalid(`${at}.namespace`, name, m)));
  out.push(...labelKeysErrors(t, at));
  const key = str(t.topologyKey);
  if (key === "") out.push(required(`${at}.topologyKey`, "can not be empty"));
  out.push(...labelKeyErrors(key, `${at}.topologyKey`));
  return out;
}

/** validatePodAffinity and validatePodAntiAffinity (the same rules). */
function podAffinityErrors(pa: Json, at: string): FieldError[] {
  const requiredAt = `${at}.requiredDuringSchedulingIgnoredDuringExecution`;
  const preferredAt = `${at}.preferredDuringSchedulingIgnoredDuringExecution`;
  return [
    ...listAt(pa.requiredDuringSchedulingIgnoredDuringExecution).flatMap((term, i) =>
      podAffinityTermErrors(term, `${requiredAt}[${i}]`),
    ),
    ...listAt(pa.preferredDuringSchedulingIgnoredDuringExecution).flatMap((raw, j) => {
      const w = obj(raw);
      return [
        ...weightErrors(w.weight, `${preferredAt}[${j}].weight`),
        ...podAffinityTermErrors(w.podAffinityTerm, `${preferredAt}[${j}].podAffinityTerm`),
      ];
    }),
  ];
}

/** validateAffinity, for `spec.affinity`. */
export function affinityErrors(affinity: unknown, at: string): FieldError[] {
  const a = obj(affinity);
  const out: FieldError[] = [];
  if (isSet(a.nodeAffinity)) out.push(...nodeAffinityErrors(obj(a.nodeAffinity), `${at}.nodeAffinity`));
  if (isSet(a.podAffinity)) out.push(...podAffinityErrors(obj(a.podAffinity), `${at}.podAffinity`));
  if (isSet(a.podAntiAffinity))
    out.push(...podAffinityErrors(obj(a.podAntiAffinity), `${at}.podAntiAffinity`));
  return out;
}
