/** IP address forms the strfmt checks share. */
import { fullFormats } from "ajv-formats/dist/formats.js";

const ipv6Pattern = (fullFormats as unknown as { ipv6: RegExp }).ipv6;

/** An IPv6 address (an embedded IPv4 allowed), without a `%zone`: what Go's net.ParseIP takes. */
export const isIPv6 = (s: string): boolean => !s.includes("%") && ipv6Pattern.test(s);

/** Dotted IPv4 as kube-apiserver's strfmt takes it: leading zeros allowed, each part ≤ 255. */
export function isDottedIPv4(s: string): boolean {
  const parts = s.split(".");
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** Go's net.ParseIP: since Go 1.17 an IPv4 part with a leading zero is refused. */
export function isGoIP(s: string): boolean {
  const strict = isDottedIPv4(s) && s.split(".").every((p) => p === "0" || !p.startsWith("0"));
  return strict || isIPv6(s);
}
