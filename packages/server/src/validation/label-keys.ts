/**
 * `matchLabelKeys` / `mismatchLabelKeys` of pod (anti-)affinity terms and topology spread
 * constraints (ValidateMatchLabelKeysAndMismatchLabelKeys upstream), and the selector merge a new
 * Pod gets for them (the pod strategy's PrepareForCreate): each key the pod has as a label becomes
 * an `In` (match) or `NotIn` (mismatch) requirement of the label selector, so that a key given both
 * ways shows as a repeated key of the selector.
 */
import {
  type FieldError,
  forbidden,
  invalid,
  isSet,
  type Json,
  listAt,
  obj,
  str,
  strs,
} from "./field-errors.js";
import { labelKeyErrors } from "./selector-rules.js";

const NO_SELECTOR = "must not be specified when labelSelector is not set";

function keyNameErrors(keys: readonly string[], selector: unknown, at: string): FieldError[] {
  if (keys.length === 0) return [];
  if (!isSet(selector)) return [forbidden(at, NO_SELECTOR)];
  return keys.flatMap((k, i) => labelKeyErrors(k, `${at}[${i}]`));
}

/** A matchLabelKeys key already in the selector; upstream indexes the owner's path, not the list's. */
function inSelectorErrors(keys: readonly string[], selector: unknown, at: string): FieldError[] {
  if (!isSet(selector)) return [];
  const index = new Map(keys.map((k, i) => [k, i]));
  const seen = new Set(Object.keys(obj(obj(selector).matchLabels)));
  const out: FieldError[] = [];
  for (const raw of listAt(obj(selector).matchExpressions)) {
    const key = str(obj(raw).key);
    const i = index.get(key);
    if (i !== undefined && seen.has(key))
      out.push(invalid(`${at}[${i}]`, key, "exists in both matchLabelKeys and labelSelector"));
    seen.add(key);
  }
  return out;
}

/** ValidateMatchLabelKeysAndMismatchLabelKeys for the term or constraint at `at`. */
export function labelKeysErrors(owner: Json, at: string): FieldError[] {
  const match = strs(owner.matchLabelKeys);
  const mismatch = strs(owner.mismatchLabelKeys);
  const out = [
    ...keyNameErrors(match, owner.labelSelector, `${at}.matchLabelKeys`),
    ...keyNameErrors(mismatch, owner.labelSelector, `${at}.mismatchLabelKeys`),
    ...inSelectorErrors(match, owner.labelSelector, at),
  ];
  const mismatched = new Set(mismatch);
  match.forEach((k, i) => {
    if (mismatched.has(k))
      out.push(
        invalid(`${at}.matchLabelKeys[${i}]`, k, "exists in both matchLabelKeys and mismatchLabelKeys"),
      );
  });
  return out;
}

/** Adds the pod's own values of the listed keys to the owner's label selector (in place). */
function mergeKeys(owner: Json, labels: Json): void {
  const selector = owner.labelSelector;
  if (!isSet(selector) || typeof selector !== "object") return;
  const add = (keys: unknown, operator: string) => {
    for (const key of strs(keys)) {
      const value = labels[key];
      if (typeof value !== "string") continue;
      const sel = selector as Json;
      sel.matchExpressions = [...listAt(sel.matchExpressions), { key, operator, values: [value] }];
    }
  };
  add(owner.matchLabelKeys, "In");
  add(owner.mismatchLabelKeys, "NotIn");
}

/** The pod strategy's mutatePodAffinity and mutateTopologySpreadConstraints, on a new Pod. */
export function mergeLabelKeysIntoSelectors(pod: Json): void {
  const spec = obj(pod.spec);
  const labels = obj(obj(pod.metadata).labels);
  const affinity = obj(spec.affinity);
  for (const kind of ["podAffinity", "podAntiAffinity"]) {
    const a = obj(affinity[kind]);
    for (const t of listAt(a.requiredDuringSchedulingIgnoredDuringExecution)) mergeKeys(obj(t), labels);
    for (const w of listAt(a.preferredDuringSchedulingIgnoredDuringExecution))
      mergeKeys(obj(obj(w).podAffinityTerm), labels);
  }
  for (const c of listAt(spec.topologySpreadConstraints)) mergeKeys(obj(c), labels);
}
