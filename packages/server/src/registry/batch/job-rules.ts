/**
 * validateJobSpec, shared by Jobs and CronJobs' job templates: counters, completion mode and the
 * per-index limits, pod failure and success policies, pod replacement policy, the pod template and
 * its restart policy (OnFailure or Never).
 */
import {
  type FieldError,
  invalid,
  isObject,
  nonNegative,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "../../validation/field-errors.js";
import { podTemplateSpecErrors } from "../../validation/pod-template.js";
import { podFailurePolicyErrors } from "./pod-failure-policy.js";

type Json = Record<string, unknown>;

const COUNTERS = [
  "parallelism",
  "completions",
  "activeDeadlineSeconds",
  "backoffLimit",
  "ttlSecondsAfterFinished",
  "backoffLimitPerIndex",
  "maxFailedIndexes",
];
const MAX_INDEXED_PARALLELISM = 100000;
const MAX_FAILED_INDEXES = 100000;

function completionModeErrors(spec: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  const mode = spec.completionMode;
  if (mode != null && mode !== "NonIndexed" && mode !== "Indexed")
    out.push(notSupported(`${at}.completionMode`, stringAt(mode), ["NonIndexed", "Indexed"]));
  if (mode === "Indexed") {
    if (spec.completions == null) out.push(required(`${at}.completions`, "when completion mode is Indexed"));
    if (typeof spec.parallelism === "number" && spec.parallelism > MAX_INDEXED_PARALLELISM)
      out.push(
        invalid(
          `${at}.parallelism`,
          spec.parallelism,
          `must be less than or equal to ${MAX_INDEXED_PARALLELISM} when completion mode is Indexed`,
        ),
      );
    const maxFailed = spec.maxFailedIndexes;
    if (typeof maxFailed === "number" && typeof spec.completions === "number" && maxFailed > spec.completions)
      out.push(invalid(`${at}.maxFailedIndexes`, maxFailed, "must be less than or equal to completions"));
    if (typeof maxFailed === "number" && maxFailed > MAX_FAILED_INDEXES)
      out.push(
        invalid(`${at}.maxFailedIndexes`, maxFailed, `must be less than or equal to ${MAX_FAILED_INDEXES}`),
      );
  }
  if (mode == null || mode === "NonIndexed")
    for (const k of ["backoffLimitPerIndex", "maxFailedIndexes"])
      if (spec[k] != null) out.push(invalid(`${at}.${k}`, spec[k], "requires indexed completion mode"));
  return out;
}

function replacementPolicyErrors(spec: Json, at: string): FieldError[] {
  const policy = spec.podReplacementPolicy;
  if (policy == null) return [];
  if (isObject(spec.podFailurePolicy))
    return policy === "Failed"
      ? []
      : [notSupported(`${at}.podReplacementPolicy`, stringAt(policy), ["Failed"])];
  return policy === "Failed" || policy === "TerminatingOrFailed"
    ? []
    : [notSupported(`${at}.podReplacementPolicy`, stringAt(policy), ["Failed", "TerminatingOrFailed"])];
}

function restartPolicyErrors(spec: Json, at: string): FieldError[] {
  const policy = stringAt(objectAt(objectAt(spec.template).spec).restartPolicy);
  const field = `${at}.template.spec.restartPolicy`;
  if (policy === "Always" || policy === "") return [required(field, 'valid values: "OnFailure", "Never"')];
  if (policy !== "OnFailure" && policy !== "Never")
    return [notSupported(field, policy, ["OnFailure", "Never"])];
  if (isObject(spec.podFailurePolicy) && policy !== "Never")
    return [invalid(field, policy, 'only "Never" is supported when podFailurePolicy is specified')];
  return [];
}

/** validateJobSpec, fields under `at` ("spec" or "spec.jobTemplate.spec"). */
export function jobSpecErrors(spec: Json, at: string): FieldError[] {
  const out = COUNTERS.flatMap((k) => nonNegative(`${at}.${k}`, spec[k]));
  if (spec.maxFailedIndexes != null && spec.backoffLimitPerIndex == null)
    out.push(required(`${at}.backoffLimitPerIndex`, "when maxFailedIndexes is specified"));
  out.push(...completionModeErrors(spec, at));
  if (isObject(spec.podFailurePolicy)) out.push(...podFailurePolicyErrors(spec, `${at}.podFailurePolicy`));
  if (isObject(spec.successPolicy) && spec.completionMode !== "Indexed")
    out.push(invalid(`${at}.successPolicy`, spec.successPolicy, "requires indexed completion mode"));
  out.push(...replacementPolicyErrors(spec, at));
  out.push(...podTemplateSpecErrors(objectAt(spec.template), `${at}.template`));
  out.push(...restartPolicyErrors(spec, at));
  return out;
}
