/**
 * core's ValidateEndpointIP for Endpoints addresses: an address Go's sloppy parser reads
 * (ip-rules.ts) that is not unspecified, loopback or link-local.
 */
import { type FieldError, invalid } from "./field-errors.js";
import { parseIpSloppy } from "./ip-rules.js";

export function endpointIpErrors(value: string, field: string): FieldError[] {
  const b = parseIpSloppy(value);
  if (!b) return [invalid(field, value, "must be a valid IP address")];
  // An IPv4-mapped IPv6 address is judged by its IPv4 part, as Go's net.IP methods do.
  const mapped = b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
  const v4 = b.length === 4 ? b : mapped ? b.slice(12) : undefined;
  const v6 = v4 ? undefined : b;
  const out: string[] = [];
  if ((v4 ?? b).every((x) => x === 0)) out.push(`may not be unspecified (${value})`);
  if (v4?.[0] === 127 || (v6?.slice(0, 15).every((x) => x === 0) && v6[15] === 1))
    out.push("may not be in the loopback range (127.0.0.0/8, ::1/128)");
  if ((v4?.[0] === 169 && v4[1] === 254) || (v6?.[0] === 0xfe && ((v6[1] as number) & 0xc0) === 0x80))
    out.push("may not be in the link-local range (169.254.0.0/16, fe80::/10)");
  if (
    (v4?.[0] === 224 && v4[1] === 0 && v4[2] === 0) ||
    (v6?.[0] === 0xff && ((v6[1] as number) & 0x0f) === 0x02)
  )
    out.push("may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)");
  return out.map((m) => invalid(field, value, m));
}
