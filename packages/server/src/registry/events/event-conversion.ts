/**
 * Events are one resource served by two APIs: kube-apiserver keeps a single object per event and
 * shows it as core `v1` Event or as `events.k8s.io/v1` Event, renaming fields between the two. The
 * reference server stores the core shape (both resources share its bucket) and converts on the way
 * in and out of `events.k8s.io`. Both directions write what Go's JSON encoding of the target type
 * writes for unset fields: null times, empty source/reference objects, and core's empty reporting
 * strings.
 */
import type { StorageConversion } from "../../resources/served.js";

type Json = Record<string, unknown>;

const EVENTS_API_VERSION = "events.k8s.io/v1";

/** What Go writes for an unset field: nothing (omitempty), null (a time), `{}` (a struct) or `""`. */
type Zero = "omit" | "null" | "object" | "string";

/** One field of the target type, in Go's field order: its name, its name in the other API, its zero. */
type FieldMap = readonly (readonly [string, string, Zero])[];

const CORE_FIELDS: FieldMap = [
  ["involvedObject", "regarding", "object"],
  ["reason", "reason", "omit"],
  ["message", "note", "omit"],
  ["source", "deprecatedSource", "object"],
  ["firstTimestamp", "deprecatedFirstTimestamp", "null"],
  ["lastTimestamp", "deprecatedLastTimestamp", "null"],
  ["count", "deprecatedCount", "omit"],
  ["type", "type", "omit"],
  ["eventTime", "eventTime", "null"],
  ["series", "series", "omit"],
  ["action", "action", "omit"],
  ["related", "related", "omit"],
  ["reportingComponent", "reportingController", "string"],
  ["reportingInstance", "reportingInstance", "string"],
];

/** events.k8s.io's fields in Go's order, with their zeros; each one's core name comes from CORE_FIELDS. */
const EVENTS_ORDER: readonly (readonly [string, Zero])[] = [
  ["eventTime", "null"],
  ["series", "omit"],
  ["reportingController", "omit"],
  ["reportingInstance", "omit"],
  ["action", "omit"],
  ["reason", "omit"],
  ["regarding", "object"],
  ["related", "omit"],
  ["note", "omit"],
  ["type", "omit"],
  ["deprecatedSource", "object"],
  ["deprecatedFirstTimestamp", "null"],
  ["deprecatedLastTimestamp", "null"],
  ["deprecatedCount", "omit"],
];

const EVENTS_FIELDS: FieldMap = EVENTS_ORDER.map(([name, zero]) => {
  const core = CORE_FIELDS.find((f) => f[1] === name);
  if (!core) throw new Error(`events.k8s.io field ${name} has no core field`);
  return [name, core[0], zero] as const;
});

const isUnset = (v: unknown): boolean => v === undefined || v === null || v === "" || v === 0;

function zeroOf(zero: Zero): unknown {
  if (zero === "null") return null;
  if (zero === "object") return {};
  return zero === "string" ? "" : undefined;
}

/** `ev` as the type `fields` describes; `renamed`: read each field under its other API's name. */
function build(ev: Json, apiVersion: string, fields: FieldMap, renamed: boolean): Json {
  const out: Json = { kind: "Event", apiVersion, metadata: ev.metadata };
  for (const [key, other, zero] of fields) {
    const value = ev[renamed ? other : key];
    const fallback = zeroOf(zero);
    if (!isUnset(value) && (zero !== "object" || typeof value === "object")) out[key] = value;
    else if (fallback !== undefined) out[key] = fallback;
  }
  return out;
}

/** An events.k8s.io/v1 Event as the core v1 Event stored for it (a core Event: as Go writes it). */
export function eventToCore(ev: Json): Json {
  return build(ev, "v1", CORE_FIELDS, ev.apiVersion === EVENTS_API_VERSION);
}

/** A stored core v1 Event as events.k8s.io/v1 shows it. */
export function eventFromCore(ev: Json): Json {
  if (ev.apiVersion === EVENTS_API_VERSION) return ev;
  return build(ev, EVENTS_API_VERSION, EVENTS_FIELDS, true);
}

export const eventsConversion: StorageConversion = { toStored: eventToCore, fromStored: eventFromCore };

/** Core events are stored as Go writes them, so reads through either API show the same values. */
export const coreEventsStorage: StorageConversion = { toStored: eventToCore, fromStored: (ev) => ev };
