/**
 * Events are one resource served by two APIs: kube-apiserver keeps a single object per event and
 * shows it as core `v1` Event or as `events.k8s.io/v1` Event, renaming fields between the two. The
 * reference server stores the core shape (both resources share its bucket) and converts on the way
 * in and out of `events.k8s.io`. Both directions write what Go's JSON encoding of the target type
 * writes for unset fields: null times, empty source/reference objects, and core's empty reporting
 * strings.
 */
import type { FieldError } from "../api/status.js";
import type { StorageConversion } from "./served.js";

type Json = Record<string, unknown>;

const EVENTS_API_VERSION = "events.k8s.io/v1";

/** Copies `value` under `key` unless it is unset or Go's zero value for an omitempty field. */
function setIfPresent(out: Json, key: string, value: unknown): void {
  if (value === undefined || value === null || value === "" || value === 0) return;
  out[key] = value;
}

const orNull = (v: unknown): unknown => (v === undefined || v === "" ? null : v);
const orEmpty = (v: unknown): Json => (typeof v === "object" && v !== null ? (v as Json) : {});

/** A core v1 Event with the fields Go always writes (null times, empty objects and strings) set. */
function withCoreZeroValues(ev: Json): Json {
  return {
    ...ev,
    involvedObject: orEmpty(ev.involvedObject),
    source: orEmpty(ev.source),
    firstTimestamp: orNull(ev.firstTimestamp),
    lastTimestamp: orNull(ev.lastTimestamp),
    eventTime: orNull(ev.eventTime),
    reportingComponent: typeof ev.reportingComponent === "string" ? ev.reportingComponent : "",
    reportingInstance: typeof ev.reportingInstance === "string" ? ev.reportingInstance : "",
  };
}

/** An events.k8s.io/v1 Event as the core v1 Event stored for it (a core Event: as Go writes it). */
export function eventToCore(ev: Json): Json {
  if (ev.apiVersion !== EVENTS_API_VERSION) return withCoreZeroValues(ev);
  const out: Json = { kind: "Event", apiVersion: "v1", metadata: ev.metadata };
  out.involvedObject = orEmpty(ev.regarding);
  setIfPresent(out, "reason", ev.reason);
  setIfPresent(out, "message", ev.note);
  out.source = orEmpty(ev.deprecatedSource);
  out.firstTimestamp = orNull(ev.deprecatedFirstTimestamp);
  out.lastTimestamp = orNull(ev.deprecatedLastTimestamp);
  setIfPresent(out, "count", ev.deprecatedCount);
  setIfPresent(out, "type", ev.type);
  out.eventTime = orNull(ev.eventTime);
  setIfPresent(out, "series", ev.series);
  setIfPresent(out, "action", ev.action);
  setIfPresent(out, "related", ev.related);
  out.reportingComponent = typeof ev.reportingController === "string" ? ev.reportingController : "";
  out.reportingInstance = typeof ev.reportingInstance === "string" ? ev.reportingInstance : "";
  return out;
}

/** A stored core v1 Event as events.k8s.io/v1 shows it. */
export function eventFromCore(ev: Json): Json {
  if (ev.apiVersion === EVENTS_API_VERSION) return ev;
  const out: Json = { kind: "Event", apiVersion: EVENTS_API_VERSION, metadata: ev.metadata };
  out.eventTime = orNull(ev.eventTime);
  setIfPresent(out, "series", ev.series);
  setIfPresent(out, "reportingController", ev.reportingComponent);
  setIfPresent(out, "reportingInstance", ev.reportingInstance);
  setIfPresent(out, "action", ev.action);
  setIfPresent(out, "reason", ev.reason);
  out.regarding = orEmpty(ev.involvedObject);
  setIfPresent(out, "related", ev.related);
  setIfPresent(out, "note", ev.message);
  setIfPresent(out, "type", ev.type);
  out.deprecatedSource = orEmpty(ev.source);
  out.deprecatedFirstTimestamp = orNull(ev.firstTimestamp);
  out.deprecatedLastTimestamp = orNull(ev.lastTimestamp);
  setIfPresent(out, "deprecatedCount", ev.count);
  return out;
}

export const eventsConversion: StorageConversion = { toStored: eventToCore, fromStored: eventFromCore };

/** Core events are stored as Go writes them, so reads through either API show the same values. */
export const coreEventsStorage: StorageConversion = { toStored: eventToCore, fromStored: (ev) => ev };

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

/**
 * Updates through events.k8s.io/v1 (not core v1) may change only metadata and the series: every
 * other field is immutable, checked on the core shape as upstream's validation does.
 */
export function validateEventUpdate(next: Json, old: Json | undefined): FieldError[] {
  if (old === undefined) return [];
  const now = eventToCore(next);
  const before = eventToCore(old);
  const errs: FieldError[] = [];
  for (const [key, field] of IMMUTABLE) {
    if (comparable(now[key]) === comparable(before[key])) continue;
    const value = now[key];
    const shown = typeof value === "object" && value !== null ? JSON.stringify(value) : (value ?? "");
    errs.push({ type: "FieldValueInvalid", field, value: shown, detail: "field is immutable" });
  }
  return errs;
}
