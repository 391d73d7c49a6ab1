/**
 * EndpointSlice endpoint checks as kube-apiserver applies them: addresses by address type (IPv4 and
 * IPv6 addresses that may be endpoints, fully qualified domain names), node names, deprecated
 * topology labels, hostnames and hints.
 */
import type { FieldError } from "../../api/status.js";
import {
  arr,
  duplicate,
  type FieldErrors,
  invalid,
  isSet,
  type Json,
  obj,
  required,
  str,
  strs,
  tooMany,
} from "../../validation/field-errors.js";
import { ipErrors, legacyIpErrors, parseIpSloppy } from "../../validation/ip-rules.js";
import { dns1123LabelProblems, dns1123SubdomainProblems } from "../../validation/name-formats.js";
import { labelValueProblems } from "../../validation/object-meta.js";

const MAX_ADDRESSES = 100;
const MAX_TOPOLOGY = 16;
const MAX_HINTS = 8;

/** Go's IsUnspecified, IsLoopback, IsLinkLocalUnicast and IsLinkLocalMulticast, in that order. */
function endpointIpErrors(ip: string, field: string): FieldError[] {
  const b = parseIpSloppy(ip) as number[];
  const v4 = b.length === 4 ? b : undefined;
  const v6 = b.length === 16 ? b : undefined;
  const problems: string[] = [];
  if (b.every((x) => x === 0)) problems.push(`may not be unspecified (${ip})`);
  if (v4?.[0] === 127 || (v6?.slice(0, 15).every((x) => x === 0) && v6[15] === 1))
    problems.push("may not be in the loopback range (127.0.0.0/8, ::1/128)");
  if ((v4?.[0] === 169 && v4[1] === 254) || (v6?.[0] === 0xfe && ((v6[1] as number) & 0xc0) === 0x80))
    problems.push("may not be in the link-local range (169.254.0.0/16, fe80::/10)");
  if (
    (v4?.[0] === 224 && v4[1] === 0 && v4[2] === 0) ||
    (v6?.[0] === 0xff && ((v6[1] as number) & 0x0f) === 0x02)
  )
    problems.push("may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)");
  return problems.map((m) => invalid(field, ip, m));
}

function fqdnErrors(name: string, field: string): FieldError[] {
  if (name === "") return [required(field)];
  const trimmed = name.endsWith(".") ? name.slice(0, -1) : name;
  const sub = dns1123SubdomainProblems(trimmed);
  if (sub.length > 0) return [invalid(field, trimmed, sub.join(","))];
  const labels = trimmed.split(".");
  if (labels.length < 2)
    return [invalid(field, trimmed, "should be a domain with at least two segments separated by dots")];
  for (const label of labels) {
    const problems = dns1123LabelProblems(label);
    if (problems.length > 0) return [invalid(field, label, problems.join(","))];
  }
  return [];
}

function addressErrors(address: string, addressType: string, field: string, listField: string): FieldError[] {
  if (addressType === "FQDN") return fqdnErrors(address, field);
  if (addressType !== "IPv4" && addressType !== "IPv6") return [];
  const parseErrs = addressType === "IPv4" ? legacyIpErrors(field, address) : ipErrors(field, address);
  if (parseErrs.length > 0) return parseErrs;
  const isV4 = !address.includes(":");
  const errs: FieldError[] = [];
  if (addressType === "IPv4" && !isV4) errs.push(invalid(listField, address, "must be an IPv4 address"));
  if (addressType === "IPv6" && isV4) errs.push(invalid(listField, address, "must be an IPv6 address"));
  return [...errs, ...endpointIpErrors(address, field)];
}

function hintErrors(hints: Json, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const lists: [string, (name: string, f: string) => FieldError[]][] = [
    ["forZones", (n, f) => labelValueProblems(n).map((m) => invalid(f, n, m))],
    ["forNodes", (n, f) => dns1123SubdomainProblems(n).map((m) => invalid(f, n, m))],
  ];
  for (const [key, check] of lists) {
    const items = arr(hints[key]);
    if (items.length > MAX_HINTS) return [...errs, tooMany(`${field}.${key}`, items.length, MAX_HINTS)];
    const seen = new Set<string>();
    items.forEach((h, i) => {
      const name = str(obj(h).name);
      const f = `${field}.${key}[${i}].name`;
      if (seen.has(name)) errs.push(duplicate(f, name));
      seen.add(name);
      errs.push(...check(name, f));
    });
  }
  return errs;
}

export function endpointErrors(ep: Json, addressType: string, field: string, out: FieldErrors): void {
  const listField = `${field}.addresses`;
  const addresses = strs(ep.addresses);
  if (addresses.length === 0) out.covered(required(listField));
  else if (addresses.length > MAX_ADDRESSES) out.covered(tooMany(listField, addresses.length, MAX_ADDRESSES));
  addresses.forEach((a, i) => {
    out.add(...addressErrors(a, addressType, `${listField}[${i}]`, listField));
  });
  if (isSet(ep.nodeName)) {
    const node = str(ep.nodeName);
    out.add(...dns1123SubdomainProblems(node).map((m) => invalid(`${field}.nodeName`, node, m)));
  }
  const topology = obj(ep.deprecatedTopology);
  if (Object.keys(topology).length > MAX_TOPOLOGY)
    out.add(tooMany(`${field}.deprecatedTopology`, Object.keys(topology).length, MAX_TOPOLOGY));
  // Its keys and values are not checked: kube-apiserver 1.37 accepts any (measured).
  if (isSet(ep.hostname)) {
    const host = str(ep.hostname);
    out.add(...dns1123LabelProblems(host).map((m) => invalid(`${field}.hostname`, host, m)));
  }
  if (isSet(ep.hints)) out.add(...hintErrors(obj(ep.hints), `${field}.hints`));
}
