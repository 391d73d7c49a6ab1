/**
 * A Job's /status write as kube-apiserver 1.37 validates it (ValidateJobUpdateStatus with the options
 * the Job status strategy turns on by default, JobManagedBy being on): counters, uncounted pods,
 * which terminal conditions go together and with which times, the index lists, and how a status may
 * move from the stored one. Most checks run only when the fields they read changed, so a controller
 * can still write other fields of a status that broke a rule earlier.
 */
import {
  arr,
  duplicate,
  type FieldError,
  invalid,
  isSet,
  nonNegative,
  num,
  obj,
  required,
  sameValue,
  str,
} from "../../validation/field-errors.js";
import { indexesOverlap, indexesProblem } from "./job-indexes.js";

type Json = Record<string, unknown>;

/** field.OmitValueType: the message has no value part. */
const conditionsError = (detail: string): FieldError => ({
  type: "FieldValueInvalid",
  field: "status.conditions",
  detail,
});

const isTrue = (status: Json, type: string): boolean =>
  arr(status.conditions).some((c) => str(obj(c).type) === type && str(obj(c).status) === "True");

interface Facts {
  readonly status: Json;
  readonly complete: boolean;
  readonly failed: boolean;
  readonly failureTarget: boolean;
  readonly criteriaMet: boolean;
  readonly finished: boolean;
}

function factsOf(job: Json): Facts {
  const status = obj(job.status);
  const complete = isTrue(status, "Complete");
  const failed = isTrue(status, "Failed");
  return {
    status,
    complete,
    failed,
    failureTarget: isTrue(status, "FailureTarget"),
    criteriaMet: isTrue(status, "SuccessCriteriaMet"),
    finished: complete || failed,
  };
}

/** Whether the status field `key` differs from the stored one (unset and null alike). */
const changed = (now: Facts, before: Facts, key: string) => !sameValue(now.status[key], before.status[key]);

function counterErrors(now: Facts, before: Facts): FieldError[] {
  const s = now.status;
  const out = ["active", "succeeded", "failed", "ready", "terminating"].flatMap((k) =>
    nonNegative(`status.${k}`, s[k]),
  );
  const seen = new Set<string>();
  for (const list of ["succeeded", "failed"])
    arr(obj(s.uncountedTerminatedPods)[list]).forEach((uid, i) => {
      const at = `status.uncountedTerminatedPods.${list}[${i}]`;
      if (str(uid) === "") out.push(invalid(at, str(uid), "must not be empty"));
      else if (seen.has(str(uid))) out.push(duplicate(at, str(uid)));
      else seen.add(str(uid));
    });
  if (
    (changed(now, before, "ready") || changed(now, before, "active")) &&
    isSet(s.ready) &&
    num(s.ready) > num(s.active)
  )
    out.push(invalid("status.ready", num(s.ready), "cannot set more ready pods than active"));
  return out;
}

/** Terminal conditions that contradict each other or lack what must come first. */
function conditionErrors(now: Facts, before: Facts, spec: Json): FieldError[] {
  const out: FieldError[] = [];
  const completeChanged = now.complete !== before.complete;
  const failedChanged = now.failed !== before.failed;
  const targetChanged = now.failureTarget !== before.failureTarget;
  const criteriaChanged = now.criteriaMet !== before.criteriaMet;
  if ((completeChanged || failedChanged) && now.complete && now.failed)
    out.push(conditionsError("cannot set Complete=True and Failed=true conditions"));
  if ((completeChanged || targetChanged) && now.complete && now.failureTarget)
    out.push(conditionsError("cannot set Complete=True and FailureTarget=true conditions"));
  if ((failedChanged || targetChanged) && now.failed && !now.failureTarget)
    out.push(conditionsError("cannot set Failed=True condition without the FailureTarget=true condition"));
  if ((completeChanged || criteriaChanged) && now.complete && !now.criteriaMet)
    out.push(
      conditionsError("cannot set Complete=True condition without the SuccessCriteriaMet=true condition"),
    );
  if (now.criteriaMet && now.failed)
    out.push(conditionsError("cannot set SuccessCriteriaMet=True and Failed=true conditions"));
  if (now.criteriaMet && now.failureTarget)
    out.push(conditionsError("cannot set SuccessCriteriaMet=True and FailureTarget=true conditions"));
  if (isSet(spec.successPolicy) && !now.criteriaMet && now.complete)
    out.push(
      conditionsError("cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True"),
    );
  return out;
}

/** What a finished job may not have, and the times a finished (or not) job must (not) have. */
function finishedErrors(now: Facts, before: Facts, spec: Json): FieldError[] {
  const s = now.status;
  const out: FieldError[] = [];
  const finishedChanged = now.finished !== before.finished;
  const startChanged = changed(now, before, "startTime");
  const completionChanged = changed(now, before, "completionTime");
  const completeChanged = now.complete !== before.complete;
  if ((completeChanged || completionChanged) && isSet(s.completionTime) && !now.complete)
    out.push(
      invalid(
        "status.completionTime",
        s.completionTime,
        "cannot set completionTime when there is no Complete=True condition",
      ),
    );
  if ((completeChanged || completionChanged) && !isSet(s.completionTime) && now.complete)
    out.push(required("status.completionTime", "completionTime is required for Complete jobs"));
  if ((finishedChanged || changed(now, before, "active")) && num(s.active) > 0 && now.finished)
    out.push(invalid("status.active", num(s.active), "active>0 is invalid for finished job"));
  const suspendedEmpty = spec.suspend === true && spec.completions === 0;
  if ((finishedChanged || startChanged) && !suspendedEmpty && !isSet(s.startTime) && now.finished)
    out.push(required("status.startTime", "startTime is required for finished job"));
  const uncounted = obj(s.uncountedTerminatedPods);
  const anyUncounted = arr(uncounted.failed).length + arr(uncounted.succeeded).length > 0;
  if ((finishedChanged || changed(now, before, "uncountedTerminatedPods")) && now.finished && anyUncounted)
    out.push(
      invalid(
        "status.uncountedTerminatedPods",
        { Succeeded: uncounted.succeeded ?? null, Failed: uncounted.failed ?? null },
        "must be empty for finished job",
      ),
    );
  if ((finishedChanged || changed(now, before, "terminating")) && num(s.terminating) > 0 && now.finished)
    out.push(invalid("status.terminating", num(s.terminating), "terminating>0 is invalid for finished job"));
  return out;
}

function indexErrors(now: Facts, before: Facts, spec: Json): FieldError[] {
  const s = now.status;
  const out: FieldError[] = [];
  const completedChanged = changed(now, before, "completedIndexes");
  const failedChanged = changed(now, before, "failedIndexes");
  const completed = str(s.completedIndexes);
  const hasCompletions = typeof spec.completions === "number";
  const completions = num(spec.completions);
  const completedProblem = hasCompletions ? indexesProblem(completed, completions) : undefined;
  if (completedChanged && completedProblem)
    out.push(
      invalid("status.completedIndexes", completed, `error parsing completedIndexes: ${completedProblem}`),
    );
  const failedProblem =
    hasCompletions && isSet(spec.backoffLimitPerIndex) && isSet(s.failedIndexes)
      ? indexesProblem(str(s.failedIndexes), completions)
      : undefined;
  if (failedChanged && failedProblem)
    out.push(
      invalid("status.failedIndexes", str(s.failedIndexes), `error parsing failedIndexes: ${failedProblem}`),
    );
  if (completedChanged && completed !== "" && spec.completionMode !== "Indexed")
    out.push(
      invalid(
        "status.completedIndexes",
        completed,
        "cannot set non-empty completedIndexes when non-indexed completion mode",
      ),
    );
  if (failedChanged && !isSet(spec.backoffLimitPerIndex) && isSet(s.failedIndexes))
    out.push(
      invalid(
        "status.failedIndexes",
        str(s.failedIndexes),
        "cannot set non-null failedIndexes when backoffLimitPerIndex is null",
      ),
    );
  const overlap =
    hasCompletions && isSet(s.failedIndexes)
      ? indexesOverlap(completed, str(s.failedIndexes), completions)
      : undefined;
  if ((failedChanged || completedChanged) && overlap)
    out.push(invalid("status.failedIndexes", str(s.failedIndexes), overlap));
  return out;
}

/** How the status may move from the stored one: terminal states, counters and times stay. */
function transitionErrors(now: Facts, before: Facts, spec: Json): FieldError[] {
  const s = now.status;
  const was = before.status;
  const out: FieldError[] = [];
  for (const type of ["Failed", "Complete", "FailureTarget"])
    if (isTrue(was, type) && !isTrue(s, type))
      out.push(conditionsError(`cannot disable the terminal ${type}=True condition`));
  if (num(s.failed) < num(was.failed))
    out.push(invalid("status.failed", num(s.failed), "cannot decrease the failed counter"));
  // Indexed jobs whose completions follow parallelism may scale down, and their successes with them.
  const scalable = spec.completionMode === "Indexed" && sameValue(spec.completions, spec.parallelism);
  if (!scalable && num(s.succeeded) < num(was.succeeded))
    out.push(invalid("status.succeeded", num(s.succeeded), "cannot decrease the succeeded counter"));
  if (
    isSet(s.completionTime) &&
    isSet(was.completionTime) &&
    !sameValue(s.completionTime, was.completionTime)
  )
    out.push(invalid("status.completionTime", s.completionTime, "field is immutable"));
  if (isSet(was.startTime) && !sameValue(s.startTime, was.startTime) && spec.suspend !== true)
    out.push(
      invalid("status.startTime", s.startTime ?? null, "field is immutable for unsuspended job once set"),
    );
  if (before.criteriaMet && !now.criteriaMet)
    out.push(conditionsError("cannot disable the SuccessCriteriaMet=True condition"));
  if (before.complete && !before.criteriaMet && now.criteriaMet)
    out.push(
      conditionsError("cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions"),
    );
  return out;
}

/** The completion may not come before the start (when either changed). */
function timeOrderErrors(now: Facts, before: Facts): FieldError[] {
  const { startTime, completionTime } = now.status;
  if (!changed(now, before, "startTime") && !changed(now, before, "completionTime")) return [];
  if (!isSet(startTime) || !isSet(completionTime)) return [];
  return Date.parse(str(completionTime)) < Date.parse(str(startTime))
    ? [invalid("status.completionTime", completionTime, "must be equal to or after `startTime`")]
    : [];
}

/** The errors of a /status write of `job` over the stored `old`. */
export function jobStatusErrors(job: Json, old: Json | undefined): FieldError[] {
  const spec = obj(job.spec);
  const now = factsOf(job);
  const before = factsOf(old ?? {});
  return [
    ...counterErrors(now, before),
    ...conditionErrors(now, before, spec),
    ...finishedErrors(now, before, spec),
    ...timeOrderErrors(now, before),
    ...indexErrors(now, before, spec),
    ...transitionErrors(now, before, spec),
  ];
}
