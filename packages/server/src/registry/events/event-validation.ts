/**
 * Event validation as kube-apiserver applies it, on the core shape whichever API wrote the event.
 * Every write passes the legacy checks (namespaces agree; an event with an eventTime names its
 * reporter, action and reason); writes through events.k8s.io/v1 are held to more: a create needs
 * an eventTime and a Normal or Warning type and may not set the deprecated fields, and an update may
 * change only metadata and the series.
 */
import { qualifiedNameErrors } from "../../api/metadata-validation.js";
import type { FieldError } from "../../api/status.js";
import { eventToCore } from "./event-conversion.js";

type Json = Record<string, unknown>;

const SHORT_LIMIT = 128;
const NOTE_LIMIT = 1024;

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== "";
const invalid = (field: string, value: unknown, detail: string): FieldError => ({
  type: "FieldValueInvalid",
  field,
  value,
  detail,
});
const required = (field: string): FieldError => ({ type: "FieldValueRequired", field, detail: "" });

function namespaceErrors(ev: Json, namespace: string): FieldError[] {
  const involved = str((ev.involvedObject as Json | undefined)?.namespace);
  const field = "involvedObject.namespace";
  if (!isSet(ev.eventTime)) {
    if (involved === "")
      return namespace === "" || namespace === "default"
        ? []
        : [invalid(field, involved, "does not match event.namespace")];
    return namespace === involved ? [] : [invalid(field, involved, "does not match event.namespace")];
  }
  return involved === "" && namespace !== "default" && namespace !== "kube-system"
    ? [invalid(field, involved, "does not match event.namespace")]
    : [];
}

function tooLong(field: string, value: string, limit: number): FieldError[] {
  return value.length > limit ? [invalid(field, "", `can have at most ${limit} characters`)] : [];
}

/** The checks every event write passes; `reporterField` is how the writing API names the reporter. */
function legacyErrors(ev: Json, reporterField: string): FieldError[] {
  const namespace = str((ev.metadata as Json | undefined)?.namespace);
  const errs = namespaceErrors(ev, namespace);
  if (!isSet(ev.eventTime)) return errs;
  const reporter = str(ev.reportingComponent);
  if (reporter === "") errs.push(required(reporterField));
  errs.push(...qualifiedNameErrors(reporter, reporterField));
  const instance = str(ev.reportingInstance);
  if (instance === "") errs.push(required("reportingInstance"));
  errs.push(...tooLong("reportingInstance", instance, SHORT_LIMIT));
  const action = str(ev.action);
  if (action === "") errs.push(required("action"));
  errs.push(...tooLong("action", action, SHORT_LIMIT));
  const reason = str(ev.reason);
  if (reason === "") errs.push(required("reason"));
  errs.push(...tooLong("reason", reason, SHORT_LIMIT));
  errs.push(...tooLong("message", str(ev.message), NOTE_LIMIT));
  return errs;
}

function seriesErrors(ev: Json): FieldError[] {
  const series = ev.series as Json | undefined | null;
  if (series === undefined || series === null) return [];
  const errs: FieldError[] = [];
  if (typeof series.count !== "number" || series.count < 2)
    errs.push(invalid("series.count", "", "should be at least 2"));
  if (!isSet(series.lastObservedTime)) errs.push(required("series.lastObservedTime"));
  return errs;
}

/** What a create through events.k8s.io/v1 must also satisfy. */
function strictCreateErrors(ev: Json): FieldError[] {
  const errs = seriesErrors(ev);
  if (!isSet(ev.eventTime)) errs.push(required("eventTime"));
  if (ev.type !== "Normal" && ev.type !== "Warning")
    errs.push(invalid("type", "", `has invalid value: ${str(ev.type)}`));
  for (const field of ["firstTimestamp", "lastTimestamp"])
    if (isSet(ev[field])) errs.push(invalid(field, "", "needs to be unset"));
  if (typeof ev.count === "number" && ev.count !== 0) errs.push(invalid("count", "", "needs to be unset"));
  const source = (ev.source ?? {}) as Json;
  if (isSet(source.component) || isSet(source.host)) errs.push(invalid("source", "", "needs to be unset"));
  return errs;
}
/** Core fields an update through events.k8s.io/v1 may not change, with the names upstream reports. */
const IMMUTABLE: readonly (readonly [string, string])[] = [
  ["involvedObject", "involvedObject"],
  ["reason", "reason"],
  ["message", "message"],
  ["source", "source"],
  ["firstTimestamp", "firstTimestamp"],
  ["lastTimestamp", "lastTimestamp"],
  ["count", "count"],
  ["type", "type"],
  ["eventTime", "eventTime"],
  ["action", "action"],
  ["related", "related"],
  ["reportingComponent", "reportingController"],
  ["reportingInstance", "reportingInstance"],
];

/** Unset and Go's zero value compare equal (the stored object holds nulls and empty strings). */
function comparable(v: unknown): string {
  if (v === undefined || v === null || v === "" || v === 0) return "";
  if (typeof v === "object" && !Array.isArray(v) && Object.keys(v as Json).length === 0) return "";
  return JSON.stringify(v);
}

/** Through events.k8s.io/v1, an update may change only metadata and the series. */
function strictUpdateErrors(now: Json, before: Json): FieldError[] {
  const errs: FieldError[] = [];
  if (comparable(now.series) !== comparable(before.series)) errs.push(...seriesErrors(now));
  for (const [key, field] of IMMUTABLE) {
    if (comparable(now[key]) === comparable(before[key])) continue;
    const value = now[key];
    const shown = typeof value === "object" && value !== null ? JSON.stringify(value) : (value ?? "");
    errs.push({ type: "FieldValueInvalid", field, value: shown, detail: "field is immutable" });
  }
  return errs;
}

/** Validation of writes through core v1. */
export function validateCoreEvent(next: Json): FieldError[] {
  return legacyErrors(eventToCore(next), "reportingComponent");
}

/** Validation of writes through events.k8s.io/v1 (`old` is set on updates). */
export function validateEventsApiEvent(next: Json, old: Json | undefined): FieldError[] {
  const now = eventToCore(next);
  const errs = legacyErrors(now, "reportingController");
  return [
    ...errs,
    ...(old === undefined ? strictCreateErrors(now) : strictUpdateErrors(now, eventToCore(old))),
  ];
}
