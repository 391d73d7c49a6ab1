/**
 * Decoding the message types whose JSON Go writes by hand (Time, MicroTime, Duration, IntOrString,
 * Quantity, embedded JSON and objects, the apiextensions schema unions, wrapped lists). The
 * generated decoders read their fields and hand them over here.
 */
import { WireError } from "./errors.js";
import type { WireReader } from "./fast-reader.js";
import { formatDuration } from "./go-duration.js";
import { formatTimestamp } from "./go-time.js";
import { type Int64Mode, int64Exact, int64Number } from "./int64.js";
import { canonicalQuantity } from "./quantity.js";
import { parseEmbeddedJson } from "./scalars.js";

// Arguments are the fields the bytes set (or undefined).

const goZeroTimeSeconds = -62135596800;
const times = new Map<number, string>();

export function spTime(secondsField: unknown, nanosField: unknown): string | null {
  if (secondsField === undefined && nanosField === undefined) return null;
  // Time drops the nanos.
  const seconds = int64Number(secondsField ?? 0);
  if (seconds === goZeroTimeSeconds) return null;
  let text = times.get(seconds);
  if (text === undefined) {
    text = formatTimestamp({ seconds, nanos: 0 }, false);
    if (times.size >= 4096) times.clear();
    times.set(seconds, text);
  }
  return text;
}

export function spMicroTime(secondsField: unknown, nanosField: unknown): string | null {
  if (secondsField === undefined && nanosField === undefined) return null;
  // MicroTime truncates the nanos (towards zero) to microseconds; time.Unix carries what lies
  // outside [0, 1e9) into the seconds.
  const n = (nanosField ?? 0) as number;
  const nanos = n - (n % 1000);
  const carry = Math.floor(nanos / 1e9);
  const seconds = int64Number(secondsField ?? 0) + carry;
  const rest = nanos - carry * 1e9;
  if (seconds === goZeroTimeSeconds && rest === 0) return null;
  return formatTimestamp({ seconds, nanos: rest }, true);
}

export function spDuration(duration: unknown): string {
  return formatDuration(duration === undefined ? 0n : int64Exact(duration));
}

export function spIntOrString(type: unknown, intVal: unknown, strVal: unknown): unknown {
  return type !== undefined && int64Number(type) === 1 ? (strVal ?? "") : (intVal ?? 0);
}

const quantities = new Map<string, string>();

export function spQuantity(text: string | undefined): string {
  if (text === undefined) return "0";
  let canonical = quantities.get(text);
  if (canonical === undefined) {
    canonical = canonicalQuantity(text);
    if (quantities.size >= 4096) quantities.clear();
    quantities.set(text, canonical);
  }
  return canonical;
}

/** FieldsV1 and apiextensions JSON: JSON text. */
export function spJson(text: string | undefined): unknown {
  if (text === undefined || text === "") return null;
  try {
    return JSON.parse(text);
  } catch (cause) {
    const preview = text.length > 40 ? `${text.slice(0, 40)}…` : text;
    throw new WireError("PROTOBUF_VALUE", `embedded bytes are not JSON (${preview})`, { cause });
  }
}

/** Decodes an enveloped object embedded at `depth`; set by the codec (it owns the envelope). */
export const embedded: { decode?: (bytes: Uint8Array, int64: Int64Mode, depth: number) => unknown } = {};

/** RawExtension: JSON bytes, or an enveloped protobuf object. */
export function spRawExtension(bytes: Uint8Array | undefined, r: WireReader, depth: number): unknown {
  if (bytes === undefined || bytes.length === 0) return null;
  if (bytes[0] === 0x6b && bytes[1] === 0x38 && bytes[2] === 0x73 && bytes[3] === 0x00) {
    return (embedded.decode as NonNullable<typeof embedded.decode>)(bytes, r.int64, depth + 1);
  }
  return parseEmbeddedJson(bytes);
}

export function spOrBool(allows: unknown, schema: unknown): unknown {
  return schema !== undefined ? schema : allows === true;
}

export function spOrArray(schema: unknown, schemas: unknown): unknown {
  return schemas !== undefined ? schemas : (schema ?? null);
}

export function spOrStringArray(schema: unknown, property: unknown): unknown {
  return property !== undefined ? property : (schema ?? null);
}

/** ExtraValue, Verbs, ...: a message wrapping `repeated string items`, written as a bare array. */
export function spList(items: unknown): unknown {
  return items ?? [];
}
