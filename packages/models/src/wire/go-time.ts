/**
 * metav1.Time and metav1.MicroTime in their JSON form. Hand-written because the JSON side follows
 * Go's time package (RFC 3339 in UTC, whole seconds or exactly six fractional digits, years
 * 0–9999 only) rather than anything a JavaScript library formats by default.
 */
import { WireError } from "./errors.js";

const nanosPerSecond = 1_000_000_000;

export interface Timestamp {
  readonly seconds: number;
  readonly nanos: number;
}

/** `2006-01-02T15:04:05Z` (Time) or `2006-01-02T15:04:05.000000Z` (MicroTime) for a Unix timestamp. */
export function formatTimestamp(ts: Timestamp, micro: boolean): string {
  // time.Unix normalises nanos outside [0, 1e9) into the seconds.
  const carry = Math.floor(ts.nanos / nanosPerSecond);
  const seconds = ts.seconds + carry;
  const nanos = ts.nanos - carry * nanosPerSecond;
  const date = new Date(seconds * 1000);
  const year = date.getUTCFullYear();
  if (!Number.isFinite(seconds) || Number.isNaN(date.getTime()) || year < 0 || year > 9999) {
    throw new WireError("PROTOBUF_VALUE", `timestamp ${ts.seconds}s is outside years 0–9999`);
  }
  const whole = `${String(year).padStart(4, "0")}${date.toISOString().slice(-20, -5)}`;
  return micro ? `${whole}.${String(Math.floor(nanos / 1000)).padStart(6, "0")}Z` : `${whole}Z`;
}

const rfc3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** The Unix timestamp of an RFC 3339 string, as Go's time.Parse(time.RFC3339, ...) reads it. */
export function parseTimestamp(text: string): Timestamp {
  const m = rfc3339.exec(text);
  if (!m) throw new WireError("PROTOBUF_VALUE", `${JSON.stringify(text)} is not an RFC 3339 time`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year); // Date.UTC maps years 0–99 to 1900–1999
  const offsetMinutes = m[8] ? (m[8] === "-" ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) : 0;
  if (
    month < 1 ||
    month > 12 ||
    date.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    Number(m[10] ?? 0) > 59 ||
    Number(m[9] ?? 0) > 23
  ) {
    throw new WireError("PROTOBUF_VALUE", `${JSON.stringify(text)} is not a valid time`);
  }
  const nanos = m[7] ? Number(m[7].padEnd(9, "0")) : 0;
  return { seconds: date.getTime() / 1000 - offsetMinutes * 60, nanos };
}
