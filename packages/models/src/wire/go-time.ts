/**
 * metav1.Time and metav1.MicroTime in their JSON form. Hand-written because the JSON side follows
 * Go's time package rather than anything a JavaScript library formats by default: time.Format in
 * UTC (any year, e.g. "10000-01-01T00:00:00Z" or "-0001-…"), and time.Parse with the RFC 3339
 * layout (four-digit years, an upper-case T and Z, a fraction of any length for Time and of exactly
 * six digits for MicroTime).
 */
import { WireError } from "./errors.js";

const secondsPerDay = 86_400;

export interface Timestamp {
  readonly seconds: number;
  /** In [0, 1e9). */
  readonly nanos: number;
}

/** `2006-01-02T15:04:05Z` (Time) or `2006-01-02T15:04:05.000000Z` (MicroTime) for a Unix timestamp. */
export function formatTimestamp(ts: Timestamp, micro: boolean): string {
  const days = Math.floor(ts.seconds / secondsPerDay);
  const { year, month, day } = civilFromDays(days);
  const inDay = ts.seconds - days * secondsPerDay;
  const clock = [Math.floor(inDay / 3600), Math.floor(inDay / 60) % 60, inDay % 60].map(two).join(":");
  const yearText = year < 0 ? `-${String(-year).padStart(4, "0")}` : String(year).padStart(4, "0");
  const date = `${yearText}-${two(month)}-${two(day)}T${clock}`;
  return micro ? `${date}.${String(Math.floor(ts.nanos / 1000)).padStart(6, "0")}Z` : `${date}Z`;
}

function two(n: number): string {
  return String(n).padStart(2, "0");
}

/** The proleptic Gregorian date `days` after 1970-01-01. */
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** Days from 1970-01-01 to the proleptic Gregorian date. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

// Go's layout reads the hour as one or two digits and a fraction after the seconds with '.' or ','.
const rfc3339 =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** The Unix timestamp of a Time (or, with `micro`, a MicroTime) string, as Go's time.Parse reads it. */
export function parseTimestamp(text: string, micro = false): Timestamp {
  const m = rfc3339.exec(text);
  if (!m || (micro && m[7]?.length !== 6)) {
    const form = micro ? "2006-01-02T15:04:05.000000Z" : "2006-01-02T15:04:05Z";
    throw new WireError("PROTOBUF_VALUE", `${JSON.stringify(text)} is not an RFC 3339 time like ${form}`);
  }
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = Number(m[9] ?? 0);
  const offsetMinutes = Number(m[10] ?? 0);
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysIn(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    offsetHours > 24 ||
    offsetMinutes > 60
  ) {
    throw new WireError("PROTOBUF_VALUE", `${JSON.stringify(text)} is not a valid time`);
  }
  const offset = (m[8] === "-" ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
  const nanos = m[7] ? Number(m[7].slice(0, 9).padEnd(9, "0")) : 0;
  const seconds =
    daysFromCivil(year, month, day) * secondsPerDay + hour * 3600 + minute * 60 + second - offset;
  return { seconds, nanos };
}
