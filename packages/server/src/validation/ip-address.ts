/**
 * IP addresses in legacy fields (Endpoints, Service external IPs), as apimachinery's
 * IsValidIPForLegacyField (strict) and core's ValidateEndpointIP check them.
 */
import { isIPv4, isIPv6 } from "node:net";
import { type FieldError, invalid } from "./field-errors.js";

/** An IPv4 address whose octets may have leading zeros (what Go's sloppy parser accepts). */
const SLOPPY_V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function sloppyV4(value: string): number[] | undefined {
  const m = SLOPPY_V4.exec(value);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

/** The address's IPv4 octets (also of an IPv4-mapped IPv6 address), when it is one. */
function v4Octets(value: string): number[] | undefined {
  const direct = sloppyV4(value);
  if (direct) return direct;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(value);
  return mapped ? sloppyV4(mapped[1] as string) : undefined;
}

const parses = (value: string) => sloppyV4(value) !== undefined || isIPv6(value);

/** IsValidIPForLegacyField with strict validation. */
export function legacyIpErrors(value: string, field: string): FieldError[] {
  if (!parses(value))
    return [invalid(field, value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")];
  const out: FieldError[] = [];
  if (!isIPv4(value) && !isIPv6(value)) out.push(invalid(field, value, "must not have leading 0s"));
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(value))
    out.push(invalid(field, value, "must not be an IPv4-mapped IPv6 address"));
  return out;
}

/** ValidateEndpointIP: a parseable address that is not unspecified, loopback or link-local. */
export function endpointIpErrors(value: string, field: string): FieldError[] {
  if (!parses(value)) return [invalid(field, value, "must be a valid IP address")];
  const v4 = v4Octets(value);
  const lower = value.toLowerCase();
  const out: FieldError[] = [];
  const unspecified = v4 ? v4.every((o) => o === 0) : /^[0:]+$/.test(lower);
  if (unspecified) out.push(invalid(field, value, `may not be unspecified (${value})`));
  if (v4 ? v4[0] === 127 : lower === "::1" || /^(0+:){7}0*1$/.test(lower))
    out.push(invalid(field, value, "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
  if (v4 ? v4[0] === 169 && v4[1] === 254 : /^fe[89ab]/.test(lower))
    out.push(invalid(field, value, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
  if (v4 ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0 : /^ff02:/.test(lower))
    out.push(invalid(field, value, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"));
  return out;
}
