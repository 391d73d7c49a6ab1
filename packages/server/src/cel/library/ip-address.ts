/**
 * IP addresses and prefixes as the Kubernetes CEL network libraries see them
 * (Go's net/netip): 4 or 16 bytes, IPv4 in strict dotted-quad form (no leading
 * zeros), IPv6 with an optional embedded IPv4 tail, written back in the
 * canonical form (lower case, the longest run of two or more zero groups
 * shortened to `::`). Zones and IPv4-mapped IPv6 addresses are refused, as the
 * libraries refuse them.
 */
import { formatIp, parseIpSloppy } from "../../validation/ip-rules.js";
import { CelRuntimeError } from "./values.js";

export class IpAddress {
  constructor(readonly bytes: Uint8Array) {}
  get is4(): boolean {
    return this.bytes.length === 4;
  }
  get family(): bigint {
    return this.is4 ? 4n : 6n;
  }
  toString(): string {
    return formatIp([...this.bytes]);
  }
  equals(o: IpAddress): boolean {
    return this.bytes.length === o.bytes.length && this.bytes.every((b, i) => b === o.bytes[i]);
  }
}

const isMapped = (b: Uint8Array) =>
  b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

/**
 * Go's netip.ParseAddr: the bytes and whether a zone was given, or undefined. netip is Go's sloppy
 * parser without its leniency: no leading zeros in IPv4 parts, embedded ones included.
 */
function netipParse(s: string): { bytes: Uint8Array; zoned: boolean } | undefined {
  const zone = s.indexOf("%");
  const addr = zone >= 0 ? s.slice(0, zone) : s;
  const quad = addr.slice(addr.lastIndexOf(":") + 1);
  if (quad.includes(".") && /(^|\.)0\d/.test(quad)) return undefined;
  if (zone >= 0 && (!addr.includes(":") || zone === s.length - 1)) return undefined;
  const bytes = parseIpSloppy(addr);
  return bytes ? { bytes: Uint8Array.from(bytes), zoned: zone >= 0 } : undefined;
}

/** An address as the IP library accepts it; the messages are the library's. */
export function parseIpAddress(s: string): IpAddress {
  const r = netipParse(s);
  const q = JSON.stringify(s);
  if (!r)
    throw new CelRuntimeError(
      `IP Address ${q} parse error during conversion from string: ParseAddr(${q}): unable to parse IP`,
    );
  if (r.zoned) throw new CelRuntimeError(`IP address ${q} with zone value is not allowed`);
  if (isMapped(r.bytes)) throw new CelRuntimeError(`IPv4-mapped IPv6 address ${q} is not allowed`);
  return new IpAddress(r.bytes);
}

export class IpPrefix {
  constructor(
    readonly addr: IpAddress,
    readonly bits: number,
  ) {}
  /** The prefix with the host bits cleared. */
  masked(): IpPrefix {
    const out = new Uint8Array(this.addr.bytes);
    out.forEach((b, i) => {
      const keep = Math.max(0, Math.min(8, this.bits - 8 * i));
      out[i] = b & ((0xff << (8 - keep)) & 0xff);
    });
    return new IpPrefix(new IpAddress(out), this.bits);
  }
  contains(ip: IpAddress): boolean {
    if (ip.is4 !== this.addr.is4) return false;
    return new IpPrefix(ip, this.bits).masked().addr.equals(this.masked().addr);
  }
  equals(o: IpPrefix): boolean {
    return this.bits === o.bits && this.addr.equals(o.addr);
  }
  toString(): string {
    return `${this.addr}/${this.bits}`;
  }
}

/** Go's netip.ParsePrefix plus the library's refusal of IPv4-mapped addresses. */
export function parseIpPrefix(s: string): IpPrefix {
  const fail = (why: string): never => {
    throw new CelRuntimeError(
      `network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(s)}): ${why}`,
    );
  };
  const slash = s.lastIndexOf("/");
  if (slash < 0) fail("no '/'");
  const addrText = s.slice(0, slash);
  const bitsText = s.slice(slash + 1);
  if (addrText.includes("%")) fail("IPv6 zones cannot be present in a prefix");
  const r = netipParse(addrText);
  if (!r) return fail(`ParseAddr(${JSON.stringify(addrText)}): unable to parse IP`);
  const addr = new IpAddress(r.bytes);
  if (!/^(0|[1-9]\d{0,2})$/.test(bitsText)) fail(`bad bits after slash: ${JSON.stringify(bitsText)}`);
  const bits = Number(bitsText);
  if (bits > (addr.is4 ? 32 : 128)) fail("prefix length out of range");
  if (isMapped(r.bytes))
    throw new CelRuntimeError(
      `network address parse error during conversion from string: IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`,
    );
  return new IpPrefix(addr, bits);
}
