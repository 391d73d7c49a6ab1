/**
 * String formats checked as kube-openapi's strfmt checks them in kube-apiserver 1.37 (its Go
 * checks and govalidator's), where ajv-formats' JSON-schema definitions differ: found by probing
 * the real server (test/server/crd-formats.test.ts pins each difference on both targets).
 * Hand-written because no maintained library implements go-openapi's variants.
 */
import { isDottedIPv4, isIPv6 } from "./ip.js";

/** Each dash optional, any case, no `urn:uuid:`. */
export const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/** govalidator's base64: at least one quartet, on one line. */
export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

const encoder = new TextEncoder();
const utf8Length = (s: string) => encoder.encode(s).length;

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Go's time.Parse("2006-01-02"): fixed widths, a real day of the month. */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const last = mo === 2 && !leap ? 28 : (DAYS[mo - 1] ?? 0);
  return mo >= 1 && d >= 1 && d <= last;
}

/**
 * strfmt's date-time: a date, a `t` in either case (no space), hh:mm:ss with hours ≤ 23 and
 * minutes and seconds ≤ 59, an optional fraction, then `z` or a `±hh:mm` zone (not range-checked).
 */
export function isDateTime(s: string): boolean {
  const [date, time] = s.toLowerCase().split("t");
  if (date === undefined || time === undefined || !isDate(date)) return false;
  // Go's `.` matches any character (a code point) but a newline.
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:[^\n][0-9]+)?(?:z|[+-]\d{2}:\d{2})$/u.exec(time);
  return m !== null && (m[1] as string) <= "23" && (m[2] as string) <= "59" && (m[3] as string) <= "59";
}

const HOST_CHAR = String.raw`[a-zA-Z0-9\p{S}\p{L}]`;
const HOSTNAME = new RegExp(
  String.raw`^(?:${HOST_CHAR}(?:-?${HOST_CHAR}{0,62})?|(?:${HOST_CHAR}(?:[-a-zA-Z0-9\p{S}\p{L}]{0,61}${HOST_CHAR})?\.)+[a-zA-Z\p{L}]{2,63})$`,
  "u",
);

/** strfmt's hostname: one label, or labels and a top-level domain of two or more letters; 255 and 63 bytes at most. */
export function isHostname(s: string): boolean {
  if (!HOSTNAME.test(s) || utf8Length(s) > 255) return false;
  return s.split(".").every((label) => utf8Length(label) <= 63);
}

/** govalidator's IsIPv4: any address that parses and has a dot (so an IPv6 with an embedded IPv4 too). */
export function isIPv4(s: string): boolean {
  return isDottedIPv4(s) || (s.includes(".") && isIPv6(s));
}

/** govalidator's IsCIDR (Go's net.ParseCIDR): an address, `/`, and decimal digits up to its length. */
export function isCIDR(s: string): boolean {
  const slash = s.indexOf("/");
  if (slash < 0) return false;
  const [addr, mask] = [s.slice(0, slash), s.slice(slash + 1)];
  const bits = isDottedIPv4(addr) ? 32 : isIPv6(addr) ? 128 : 0;
  return bits > 0 && /^\d+$/.test(mask) && Number(mask) <= bits;
}
