/**
 * Load-balancer ingress entries of a /status write, shared by Services and Ingresses: each IP is a
 * valid address (one already stored may stay as written) and each hostname a DNS subdomain that is
 * no IP address.
 */
import { type FieldError, invalid, type Json, obj, str } from "./field-errors.js";
import { legacyIpErrors, parseIpSloppy } from "./ip-rules.js";
import { dns1123SubdomainProblems } from "./name-formats.js";

/** The ingress entries of `status.loadBalancer`. */
export const loadBalancerIngress = (o: Json): Json[] => {
  const list = obj(obj(o.status).loadBalancer).ingress;
  return Array.isArray(list) ? list.map(obj) : [];
};

/** The IPs stored before the write, which upstream lets stay in a legacy form. */
export const storedIngressIps = (old: Json | undefined): string[] =>
  old
    ? loadBalancerIngress(old)
        .map((e) => str(e.ip))
        .filter((ip) => ip !== "")
    : [];

/** One entry's `ip`: valid, or as stored. */
export function ingressIpErrors(entry: Json, field: string, oldIps: readonly string[]): FieldError[] {
  const ip = str(entry.ip);
  return ip === "" ? [] : legacyIpErrors(`${field}.ip`, ip, oldIps);
}

/** One entry's `hostname`: a DNS subdomain that is no IP. */
export function ingressHostnameErrors(entry: Json, field: string): FieldError[] {
  const host = str(entry.hostname);
  if (host === "") return [];
  const errs = dns1123SubdomainProblems(host).map((m) => invalid(`${field}.hostname`, host, m));
  if (parseIpSloppy(host))
    errs.push(invalid(`${field}.hostname`, host, "must be a DNS name, not an IP address"));
  return errs;
}
