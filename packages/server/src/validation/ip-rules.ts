/**
 * IP addresses and CIDRs as apimachinery checks them: a "sloppy" parse as Go's net package does it
 * (IPv4 parts may have leading zeros), the strict rules on top (no leading zeros, no IPv4-mapped
 * IPv6, no bits beyond the prefix) and canonical forms as Go prints them. Written by hand: the
 * checks must give Go's verdicts and Go's printed forms, which no JavaScript IP library promises.
 */
import type { FieldError } from "../api/status.js";
import { invalid } from "./field-errors.js";

/** 4 or 16 bytes. */
type Bytes = number[];

function parseV4(s: string): Bytes | undefined {
  const parts = s.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    out.push(Number(p));
  }
  return out;
}

function parseV6(s: string): Bytes | undefined {
  if (s.includes("%")) return undefined;
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === "") return [];
    const out: number[] = [];
    const parts = h.split(":");
    for (const [i, p] of parts.entries()) {
      if (i === parts.length - 1 && p.includes(".")) {
        const v4 = parseV4(p);
        if (!v4) return undefined;
        out.push(((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) out.push(Number.parseInt(p, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0] as string);
  const tail = halves.length === 2 ? groups(halves[1] as string) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...new Array(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

/** Go's net.ParseIP (sloppy: IPv4 parts may have leading zeros). */
export function parseIpSloppy(s: string): Bytes | undefined {
  return s.includes(":") ? parseV6(s) : parseV4(s);
}

const isMapped = (b: Bytes): boolean =>
  b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

/** Go's net.IP.String(): IPv4 (also IPv4-mapped IPv6) dotted, IPv6 in RFC 5952 form. */
export function formatIp(b: Bytes): string {
  if (b.length === 4 || isMapped(b)) return b.slice(-4).join(".");
  const groups = Array.from({ length: 8 }, (_, i) => ((b[2 * i] as number) << 8) | (b[2 * i + 1] as number));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(":");
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLen).join(":")}`;
}

/** What netip.ParseAddr refuses that the sloppy parse accepts: leading zeros in IPv4 parts. */
function hasLeadingZero(s: string): boolean {
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  return quad?.slice(1).some((p) => p.length > 1 && p.startsWith("0")) === true;
}

function ipProblems(value: string, strict: boolean): { bytes?: Bytes; problems: string[] } {
  const bytes = parseIpSloppy(value);
  if (!bytes) return { problems: ["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"] };
  const problems: string[] = [];
  if (strict && hasLeadingZero(value)) problems.push("must not have leading 0s");
  if (strict && value.includes(":") && isMapped(bytes))
    problems.push("must not be an IPv4-mapped IPv6 address");
  return { bytes, problems };
}

/** apimachinery's IsValidIPForLegacyField (strict checks on, as the 1.37 default is). */
export function legacyIpErrors(
  field: string,
  value: string,
  oldValues: readonly string[] = [],
): FieldError[] {
  if (oldValues.includes(value)) return [];
  return ipProblems(value, true).problems.map((m) => invalid(field, value, m));
}

/** apimachinery's IsValidIP: strict and canonical. */
export function ipErrors(field: string, value: string): FieldError[] {
  const { bytes, problems } = ipProblems(value, true);
  if (problems.length > 0 || !bytes) return problems.map((m) => invalid(field, value, m));
  const canonical = formatIp(bytes);
  return canonical === value
    ? []
    : [invalid(field, value, `must be in canonical form (${JSON.stringify(canonical)})`)];
}

export interface Cidr {
  readonly ip: Bytes;
  readonly network: Bytes;
  readonly bits: number;
}

/** Go's net.ParseCIDR (sloppy IPv4 parts); the network address is masked. */
export function parseCidrSloppy(value: string): Cidr | undefined {
  const slash = value.indexOf("/");
  if (slash < 0) return undefined;
  const ip = parseIpSloppy(value.slice(0, slash));
  const len = value.slice(slash + 1);
  if (!ip || !/^\d{1,3}$/.test(len)) return undefined;
  const bits = Number(len);
  if (bits > ip.length * 8) return undefined;
  const network = ip.map((b, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
  return { ip, network, bits };
}

const formatCidr = (c: Cidr): string =>
  isMapped(c.network) ? `${formatIp(c.network)}/${c.bits - 96}` : `${formatIp(c.network)}/${c.bits}`;

function cidrProblems(value: string): { cidr?: Cidr; problems: string[] } {
  const cidr = parseCidrSloppy(value);
  if (!cidr) return { problems: ["must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"] };
  const slash = value.indexOf("/");
  const len = value.slice(slash + 1);
  if (hasLeadingZero(value.slice(0, slash)) || (len.length > 1 && len.startsWith("0")))
    return { cidr, problems: ["must not have leading 0s in IP or prefix length"] };
  if (value.includes(":") && isMapped(cidr.ip))
    return { cidr, problems: ["must not have an IPv4-mapped IPv6 address"] };
  if (cidr.ip.some((b, i) => b !== cidr.network[i]))
    return { cidr, problems: ["must not have bits set beyond the prefix length"] };
  return { cidr, problems: [] };
}

/** apimachinery's IsValidCIDRForLegacyField (strict checks on). */
export function legacyCidrErrors(
  field: string,
  value: string,
  oldValues: readonly string[] = [],
): FieldError[] {
  if (oldValues.includes(value)) return [];
  return cidrProblems(value).problems.map((m) => invalid(field, value, m));
}

/** apimachinery's IsValidCIDR: strict and canonical. */
export function cidrErrors(field: string, value: string): FieldError[] {
  const { cidr, problems } = cidrProblems(value);
  if (problems.length > 0 || !cidr) return problems.map((m) => invalid(field, value, m));
  const canonical = formatCidr(cidr);
  return canonical === value
    ? []
    : [invalid(field, value, `must be in canonical form (${JSON.stringify(canonical)})`)];
}

/** Whether `inner` lies strictly inside `outer` (same family, longer prefix, inside the network). */
export function strictSubset(outer: Cidr, inner: Cidr): boolean {
  if (outer.network.length !== inner.network.length || outer.bits >= inner.bits) return false;
  const masked = inner.ip.map((b, i) => {
    const keep = Math.max(0, Math.min(8, outer.bits - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
  return masked.every((b, i) => b === outer.network[i]);
}

/** "IPv4", "IPv6" or "" (not a CIDR), as netutils.IPFamilyOfCIDRString answers. */
export function cidrFamily(value: string): string {
  const c = parseCidrSloppy(value);
  if (!c) return "";
  return c.ip.length === 4 || isMapped(c.ip) ? "IPv4" : "IPv6";
}
