/**
 * The Kubernetes IP, CIDR and URL libraries for CEL: ip(), isIP(), cidr(),
 * isCIDR(), url(), isURL() and their accessors. Addresses are parsed with
 * Node's net module (strict dotted-quad IPv4, as the apiserver's parser
 * requires: no leading zeros).
 */
import { BlockList, isIP, isIPv4 } from "node:net";
import type { Environment } from "@marcbachmann/cel-js";
import { CelRuntimeError } from "./values.js";

export class IpAddress {
  constructor(readonly text: string) {}
  get family(): bigint {
    return BigInt(isIP(this.text));
  }
}

export class Cidr {
  constructor(
    readonly ip: string,
    readonly prefix: number,
  ) {}
  contains(addr: string): boolean {
    const list = new BlockList();
    const type = isIPv4(this.ip) ? "ipv4" : "ipv6";
    list.addSubnet(this.ip, this.prefix, type);
    return isIP(addr) !== 0 && list.check(addr, isIPv4(addr) ? "ipv4" : "ipv6");
  }
}

export class Url {
  constructor(readonly url: URL) {}
}

function parseIp(s: string): IpAddress {
  if (isIP(s) === 0 || s.includes("%"))
    throw new CelRuntimeError(
      `IP Address ${JSON.stringify(s)} parse error during conversion from string: ParseAddr(${JSON.stringify(s)}): unable to parse IP`,
    );
  return new IpAddress(s);
}

function parseCidr(s: string): Cidr {
  const [ip = "", prefix = "", extra] = s.split("/");
  const max = isIPv4(ip) ? 32 : 128;
  const bits = /^\d+$/.test(prefix) ? Number(prefix) : -1;
  if (extra !== undefined || isIP(ip) === 0 || bits < 0 || bits > max)
    throw new CelRuntimeError(
      `network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(s)}): bad prefix`,
    );
  return new Cidr(ip, bits);
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

const ok = (f: () => unknown) => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

export function registerNetwork(env: Environment): void {
  env.registerType("net.IP", IpAddress);
  env.registerType("net.CIDR", Cidr);
  env.registerType("net.URL", Url);
  env.registerFunction("ip(string): net.IP", parseIp);
  env.registerFunction("isIP(string): bool", (s: string) => ok(() => parseIp(s)));
  env.registerFunction("net.IP.family(): int", (ip: IpAddress) => ip.family);
  env.registerFunction(
    "net.IP.isLoopback(): bool",
    (ip: IpAddress) => ip.text === "::1" || ip.text.startsWith("127."),
  );
  env.registerFunction("cidr(string): net.CIDR", parseCidr);
  env.registerFunction("isCIDR(string): bool", (s: string) => ok(() => parseCidr(s)));
  env.registerFunction("net.CIDR.containsIP(string): bool", (c: Cidr, s: string) => c.contains(s));
  env.registerFunction("net.CIDR.containsIP(net.IP): bool", (c: Cidr, ip: IpAddress) => c.contains(ip.text));
  env.registerFunction("net.CIDR.prefixLength(): int", (c: Cidr) => BigInt(c.prefix));
  env.registerFunction("net.CIDR.ip(): net.IP", (c: Cidr) => new IpAddress(c.ip));
  env.registerFunction("url(string): net.URL", parseUrl);
  env.registerFunction("isURL(string): bool", (s: string) => ok(() => parseUrl(s)));
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
