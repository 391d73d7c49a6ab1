/**
 * Endpoints: every subset has addresses (ready or not), valid IPs, hostnames and node names, and
 * ports named when there are several; an update that keeps the subsets is not re-checked
 * (ValidateEndpoints).
 */
import { dnsLabelErrors } from "../../validation/containers.js";
import {
  type FieldError,
  invalid,
  listAt,
  notSupported,
  objectAt,
  required,
  sameGoValue,
  stringAt,
} from "../../validation/field-errors.js";
import { portNumberProblems } from "../../validation/format-rules.js";
import { endpointIpErrors } from "../../validation/ip-address.js";
import { legacyIpErrors } from "../../validation/ip-rules.js";
import { dns1123SubdomainProblems } from "../../validation/name-formats.js";
import { qualifiedNameProblems } from "../../validation/object-meta.js";
import type { KindStrategy } from "../strategy.js";

type Json = Record<string, unknown>;
const PROTOCOLS = ["SCTP", "TCP", "UDP"];

function addressErrors(a: Json, at: string): FieldError[] {
  const ip = stringAt(a.ip);
  const out = legacyIpErrors(`${at}.ip`, ip);
  const hostname = stringAt(a.hostname);
  if (hostname !== "") out.push(...dnsLabelErrors(hostname, `${at}.hostname`));
  if (typeof a.nodeName === "string")
    for (const m of dns1123SubdomainProblems(a.nodeName)) out.push(invalid(`${at}.nodeName`, a.nodeName, m));
  out.push(...endpointIpErrors(ip, `${at}.ip`));
  return out;
}

function portErrors(p: Json, at: string, requireName: boolean): FieldError[] {
  const out: FieldError[] = [];
  const name = stringAt(p.name);
  if (requireName && name === "") out.push(required(`${at}.name`));
  else if (name !== "") out.push(...dnsLabelErrors(name, `${at}.name`));
  const port = typeof p.port === "number" ? p.port : 0;
  for (const m of portNumberProblems(port)) out.push(invalid(`${at}.port`, port, m));
  const protocol = stringAt(p.protocol);
  if (protocol === "") out.push(required(`${at}.protocol`));
  else if (!PROTOCOLS.includes(protocol)) out.push(notSupported(`${at}.protocol`, protocol, PROTOCOLS));
  if (typeof p.appProtocol === "string")
    for (const m of qualifiedNameProblems(p.appProtocol))
      out.push(invalid(`${at}.appProtocol`, p.appProtocol, m));
  return out;
}

function subsetErrors(subsets: unknown): FieldError[] {
  const out: FieldError[] = [];
  listAt(subsets).forEach((raw, i) => {
    const s = objectAt(raw);
    const at = `subsets[${i}]`;
    const ready = listAt(s.addresses);
    const notReady = listAt(s.notReadyAddresses);
    if (ready.length === 0 && notReady.length === 0)
      out.push(required(at, "must specify `addresses` or `notReadyAddresses`"));
    for (const [j, a] of ready.entries()) out.push(...addressErrors(objectAt(a), `${at}.addresses[${j}]`));
    for (const [j, a] of notReady.entries())
      out.push(...addressErrors(objectAt(a), `${at}.notReadyAddresses[${j}]`));
    const ports = listAt(s.ports);
    for (const [j, p] of ports.entries())
      out.push(...portErrors(objectAt(p), `${at}.ports[${j}]`, ports.length > 1));
  });
  return out;
}

export const endpoints: KindStrategy = {
  group: "",
  resource: "endpoints",
  defaults(obj) {
    // Endpoint ports are TCP unless they say otherwise.
    for (const s of listAt(obj.subsets))
      for (const p of listAt(objectAt(s).ports)) {
        const port = objectAt(p);
        if (port.protocol === undefined && p === port) port.protocol = "TCP";
      }
  },
  validate: (obj, old) => (old && sameGoValue(obj.subsets, old.subsets) ? [] : subsetErrors(obj.subsets)),
};
