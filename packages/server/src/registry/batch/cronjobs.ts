/**
 * CronJobs: concurrent runs allowed, three successful and one failed job kept, the job template's
 * pod spec defaulted; validated as ValidateCronJobCreate and ValidateCronJobUpdate (the schedule as
 * robfig/cron parses it, the time zone, the concurrency policy, the job template).
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
import { renderSelector } from "../../validation/label-selector.js";
import { defaultTemplate } from "../core/pod-template-defaults.js";
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { cronScheduleProblem } from "./cron-schedule.js";
import { jobSpecErrors } from "./job-rules.js";

type Json = Record<string, unknown>;

/** Whether the IANA time zone database (as this runtime has it) knows `zone`; "" and UTC are Go's too. */
function knownZone(zone: string): boolean {
  if (zone === "" || zone === "UTC") return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

function timeZoneErrors(zone: unknown): FieldError[] {
  if (typeof zone !== "string") return [];
  const field = "spec.timeZone";
  if (zone === "") return [invalid(field, zone, "timeZone must be nil or non-empty string")];
  if (zone.split("/").some((p) => p === "." || p === ".." || p.startsWith("-") || !ZONE_PART.test(p)))
    return [invalid(field, zone, `unknown time zone ${zone}`)];
  const out: FieldError[] = [];
  if (zone.toLowerCase() === "local")
    out.push(
      invalid(
        field,
        zone,
        "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
      ),
    );
  if (zone !== "Local" && !knownZone(zone)) out.push(invalid(field, zone, `unknown time zone ${zone}`));
  return out;
}

function scheduleErrors(schedule: string, timeZone: unknown, oldSchedule: string | undefined): FieldError[] {
  if (schedule === "") return [required("spec.schedule")];
  const out: FieldError[] = [];
  const problem = cronScheduleProblem(schedule, knownZone);
  if (problem !== undefined) out.push(invalid("spec.schedule", schedule, problem));
  const allowTZ = oldSchedule?.includes("TZ") ?? false;
  if (allowTZ && schedule.includes("TZ") && timeZone != null)
    out.push(
      invalid("spec.schedule", schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"),
    );
  else if (!allowTZ && schedule.includes("TZ"))
    out.push(
      invalid("spec.schedule", schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"),
    );
  return out;
}

const POLICIES = ["Allow", "Forbid", "Replace"];

function jobTemplateErrors(template: Json): FieldError[] {
  const spec = objectAt(template.spec);
  const out = jobSpecErrors(spec, "spec.jobTemplate.spec");
  if (isObject(spec.selector))
    out.push(
      invalid(
        "spec.jobTemplate.spec.selector",
        renderSelector(spec.selector),
        "`selector` will be auto-generated",
      ),
    );
  if (spec.manualSelector === true)
    out.push(notSupported("spec.jobTemplate.spec.manualSelector", true, ["nil", "false"]));
  return out;
}

function cronJobSpecErrors(spec: Json, old: Json | undefined): FieldError[] {
  const out = scheduleErrors(
    stringAt(spec.schedule),
    spec.timeZone,
    old ? stringAt(old.schedule) : undefined,
  );
  out.push(...nonNegative("spec.startingDeadlineSeconds", spec.startingDeadlineSeconds));
  if (!old || old.timeZone !== spec.timeZone) out.push(...timeZoneErrors(spec.timeZone));
  const policy = stringAt(spec.concurrencyPolicy);
  if (policy === "") out.push(required("spec.concurrencyPolicy"));
  else if (!POLICIES.includes(policy)) out.push(notSupported("spec.concurrencyPolicy", policy, POLICIES));
  out.push(...jobTemplateErrors(objectAt(spec.jobTemplate)));
  out.push(...nonNegative("spec.successfulJobsHistoryLimit", spec.successfulJobsHistoryLimit));
  out.push(...nonNegative("spec.failedJobsHistoryLimit", spec.failedJobsHistoryLimit));
  return out;
}

export const cronjobs: KindStrategy = {
  group: "batch",
  resource: "cronjobs",
  tracksGeneration: true,
  defaults(obj) {
    const spec = child(obj, "spec");
    set(spec, "concurrencyPolicy", "Allow");
    set(spec, "suspend", false);
    set(spec, "successfulJobsHistoryLimit", 3);
    set(spec, "failedJobsHistoryLimit", 1);
    defaultTemplate(child(child(spec, "jobTemplate"), "spec"));
  },
  validate: (obj, old) => cronJobSpecErrors(objectAt(obj.spec), old ? objectAt(old.spec) : undefined),
};
