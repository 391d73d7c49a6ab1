/**
 * The Kubernetes IP, CIDR and URL libraries for CEL: ip(), isIP(),
 * ip.isCanonical(), cidr(), isCIDR(), url(), isURL(), their accessors and
 * predicates, string() of addresses and prefixes, and equality. Addresses and
 * prefixes follow Go's net/netip (ip-address.ts).
 */
import type { Environment } from "@marcbachmann/cel-js";
import { IpAddress, IpPrefix, parseIpAddress, parseIpPrefix } from "./ip-address.js";
import { CelRuntimeError, succeeds } from "./values.js";

export { IpAddress, IpPrefix };

export class Url {
  constructor(readonly url: URL) {}
}

function parseUrl(s: string): Url {
  try {
    return new Url(new URL(s));
  } catch {
    throw new CelRuntimeError(
      `URL parse error during conversion from string: parse ${JSON.stringify(s)}: invalid URI for request`,
    );
  }
}

const b = (ip: IpAddress, i: number) => ip.bytes[i] as number;
const isLoopback = (ip: IpAddress) =>
  ip.is4 ? b(ip, 0) === 127 : ip.bytes.every((x, i) => x === (i === 15 ? 1 : 0));
const isUnspecified = (ip: IpAddress) => ip.bytes.every((x) => x === 0);
const isMulticast = (ip: IpAddress) => (ip.is4 ? (b(ip, 0) & 0xf0) === 0xe0 : b(ip, 0) === 0xff);
const isLinkLocalUnicast = (ip: IpAddress) =>
  ip.is4 ? b(ip, 0) === 169 && b(ip, 1) === 254 : b(ip, 0) === 0xfe && (b(ip, 1) & 0xc0) === 0x80;
/** IPv4 224.0.0.0/24, IPv6 ff02::/16 (any flags), as Go's netip decides. */
const isLinkLocalMulticast = (ip: IpAddress) =>
  ip.is4
    ? b(ip, 0) === 224 && b(ip, 1) === 0 && b(ip, 2) === 0
    : b(ip, 0) === 0xff && (b(ip, 1) & 0x0f) === 0x02;
const isBroadcast = (ip: IpAddress) => ip.is4 && ip.bytes.every((x) => x === 255);
const isGlobalUnicast = (ip: IpAddress) =>
  !isUnspecified(ip) && !isBroadcast(ip) && !isLoopback(ip) && !isMulticast(ip) && !isLinkLocalUnicast(ip);

/** Whether `inner` lies within `outer`: the same network under outer's mask, and no shorter. */
const containsPrefix = (outer: IpPrefix, inner: IpPrefix) =>
  inner.addr.is4 === outer.addr.is4 &&
  new IpPrefix(inner.addr, outer.bits).masked().equals(outer.masked()) &&
  outer.bits <= inner.bits;

/** The `ip` namespace value: CEL calls `ip.isCanonical(s)` as a method of it. */
class IpNamespace {}

function registerIp(env: Environment): void {
  const IP = "net.IP";
  env.registerType(IP, IpAddress);
  env.registerFunction(`ip(string): ${IP}`, parseIpAddress);
  env.registerFunction("isIP(string): bool", (s: string) => succeeds(() => parseIpAddress(s)));
  env.registerType("k8s.ip", IpNamespace);
  env.registerConstant("ip", "k8s.ip", new IpNamespace());
  env.registerFunction("k8s.ip.isCanonical(string): bool", (_: unknown, s: string) => {
    return parseIpAddress(s).toString() === s;
  });
  env.registerFunction(`string(${IP}): string`, (ip: IpAddress) => ip.toString());
  env.registerOperator(`${IP} == ${IP}`, (x: IpAddress, y: IpAddress) => x.equals(y));
  env.registerFunction(`${IP}.family(): int`, (ip: IpAddress) => ip.family);
  const predicates: [string, (ip: IpAddress) => boolean][] = [
    ["isUnspecified", isUnspecified],
    ["isLoopback", isLoopback],
    ["isLinkLocalMulticast", isLinkLocalMulticast],
    ["isLinkLocalUnicast", isLinkLocalUnicast],
    ["isGlobalUnicast", isGlobalUnicast],
  ];
  for (const [name, f] of predicates) env.registerFunction(`${IP}.${name}(): bool`, f);
}

function registerCidr(env: Environment): void {
  const C = "net.CIDR";
  env.registerType(C, IpPrefix);
  env.registerFunction(`cidr(string): ${C}`, parseIpPrefix);
  env.registerFunction("isCIDR(string): bool", (s: string) => succeeds(() => parseIpPrefix(s)));
  env.registerFunction(`string(${C}): string`, (c: IpPrefix) => c.toString());
  env.registerOperator(`${C} == ${C}`, (x: IpPrefix, y: IpPrefix) => x.equals(y));
  env.registerFunction(`${C}.containsIP(string): bool`, (c: IpPrefix, s: string) =>
    c.contains(parseIpAddress(s)),
  );
  env.registerFunction(`${C}.containsIP(net.IP): bool`, (c: IpPrefix, ip: IpAddress) => c.contains(ip));
  env.registerFunction(`${C}.containsCIDR(string): bool`, (c: IpPrefix, s: string) =>
    containsPrefix(c, parseIpPrefix(s)),
  );
  env.registerFunction(`${C}.containsCIDR(${C}): bool`, containsPrefix);
  env.registerFunction(`${C}.prefixLength(): int`, (c: IpPrefix) => BigInt(c.bits));
  env.registerFunction(`${C}.ip(): net.IP`, (c: IpPrefix) => c.addr);
  env.registerFunction(`${C}.masked(): ${C}`, (c: IpPrefix) => c.masked());
}

function registerUrl(env: Environment): void {
  env.registerType("net.URL", Url);
  env.registerFunction("url(string): net.URL", parseUrl);
  env.registerFunction("isURL(string): bool", (s: string) => succeeds(() => parseUrl(s)));
  env.registerFunction("net.URL.getScheme(): string", (u: Url) => u.url.protocol.replace(/:$/, ""));
  env.registerFunction("net.URL.getHost(): string", (u: Url) => u.url.host);
  env.registerFunction("net.URL.getHostname(): string", (u: Url) => u.url.hostname.replace(/^\[|\]$/g, ""));
  env.registerFunction("net.URL.getPort(): string", (u: Url) => u.url.port);
  env.registerFunction("net.URL.getEscapedPath(): string", (u: Url) => u.url.pathname);
  env.registerFunction("net.URL.getQuery(): map<string, list<string>>", (u: Url) => {
    const out: Record<string, string[]> = {};
    for (const [k, v] of u.url.searchParams) out[k] = [...(out[k] ?? []), v];
    return out;
  });
}

export function registerNetwork(env: Environment): void {
  registerIp(env);
  registerCidr(env);
  registerUrl(env);
}
