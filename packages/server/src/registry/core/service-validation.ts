/**
 * Service validation as upstream's validateService does it, for the fields that do not depend on
 * address allocation: ports (names, numbers, protocols, target ports, duplicates), type, session
 * affinity, selector, ExternalName rules, node ports by type. Cluster IP and IP family rules are
 * decided by the allocator (service-allocation.ts), not here (docs/divergences.md SV1c).
 */
import { dnsLabelErrors } from "../../validation/containers.js";
import {
  duplicate,
  type FieldError,
  forbidden,
  goStruct,
  invalid,
  listAt,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "../../validation/field-errors.js";
import { portNumberProblems } from "../../validation/format-rules.js";
import { labelMapErrors } from "../../validation/label-selector.js";
import { dns1123SubdomainProblems } from "../../validation/name-formats.js";
import { qualifiedNameProblems } from "../../validation/object-meta.js";
import { portNumOrNameErrors } from "../../validation/probes.js";

type Json = Record<string, unknown>;

const TYPES = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
const PROTOCOLS = ["SCTP", "TCP", "UDP"];

function portErrors(p: Json, at: string, requireName: boolean, names: Set<string>): FieldError[] {
  const out: FieldError[] = [];
  const name = stringAt(p.name);
  if (requireName && name === "") out.push(required(`${at}.name`));
  else if (name !== "") {
    out.push(...dnsLabelErrors(name, `${at}.name`));
    if (names.has(name)) out.push(duplicate(`${at}.name`, name));
    else names.add(name);
  }
  const port = typeof p.port === "number" ? p.port : 0;
  for (const m of portNumberProblems(port)) out.push(invalid(`${at}.port`, port, m));
  const protocol = stringAt(p.protocol);
  if (protocol === "") out.push(required(`${at}.protocol`));
  else if (!PROTOCOLS.includes(protocol)) out.push(notSupported(`${at}.protocol`, protocol, PROTOCOLS));
  out.push(...portNumOrNameErrors(p.targetPort ?? 0, `${at}.targetPort`));
  if (typeof p.appProtocol === "string")
    for (const m of qualifiedNameProblems(p.appProtocol))
      out.push(invalid(`${at}.appProtocol`, p.appProtocol, m));
  return out;
}

/** The port as Go prints a core.ServicePort in a Duplicate cause. */
const shownPort = (p: Json) =>
  goStruct([
    ["Name", stringAt(p.name)],
    ["Protocol", stringAt(p.protocol)],
    ["AppProtocol", p.appProtocol ?? null],
    ["Port", p.port ?? 0],
    ["TargetPort", p.targetPort ?? 0],
    ["NodePort", p.nodePort ?? 0],
  ]);

function externalNameErrors(spec: Json): FieldError[] {
  const out: FieldError[] = [];
  if (listAt(spec.clusterIPs).length > 0 || stringAt(spec.clusterIP) !== "")
    out.push(forbidden("spec.clusterIPs", "may not be set for ExternalName services"));
  if (listAt(spec.ipFamilies).length > 0)
    out.push(forbidden("spec.ipFamilies", "may not be set for ExternalName services"));
  if (spec.ipFamilyPolicy != null)
    out.push(forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services"));
  const cname = stringAt(spec.externalName).replace(/\.$/, "");
  if (cname === "") out.push(required("spec.externalName"));
  else for (const m of dns1123SubdomainProblems(cname)) out.push(invalid("spec.externalName", cname, m));
  return out;
}

function duplicatePortErrors(ports: Json[]): FieldError[] {
  const out: FieldError[] = [];
  const nodePorts = new Set<string>();
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    if (typeof p.nodePort === "number" && p.nodePort !== 0) {
      const key = `${p.protocol}/${p.nodePort}`;
      if (nodePorts.has(key)) out.push(duplicate(`spec.ports[${i}].nodePort`, p.nodePort));
      nodePorts.add(key);
    }
  });
  ports.forEach((p, i) => {
    const key = `${p.protocol}/${p.port}`;
    if (seen.has(key))
      out.push(duplicate(`spec.ports[${i}]`, shownPort({ protocol: p.protocol, port: p.port })));
    seen.add(key);
  });
  return out;
}

export function serviceErrors(spec: Json): FieldError[] {
  const out: FieldError[] = [];
  const ports = listAt(spec.ports).map(objectAt);
  const type = stringAt(spec.type);
  const headless = spec.clusterIP === "None";
  if (ports.length === 0 && !headless && type !== "ExternalName") out.push(required("spec.ports"));
  if (type === "ExternalName") out.push(...externalNameErrors(spec));
  const names = new Set<string>();
  for (const [i, p] of ports.entries())
    out.push(...portErrors(p, `spec.ports[${i}]`, ports.length > 1, names));
  if (spec.selector != null) out.push(...labelMapErrors(spec.selector, "spec.selector"));
  const affinity = stringAt(spec.sessionAffinity);
  if (affinity === "") out.push(required("spec.sessionAffinity"));
  else if (affinity !== "ClientIP" && affinity !== "None")
    out.push(notSupported("spec.sessionAffinity", affinity, ["ClientIP", "None"]));
  if (affinity === "None" && spec.sessionAffinityConfig != null)
    out.push(forbidden("spec.sessionAffinityConfig", "must not be set when session affinity is None"));
  if (type === "") out.push(required("spec.type"));
  else if (!TYPES.includes(type)) out.push(notSupported("spec.type", type, TYPES));
  if (type === "ClusterIP")
    ports.forEach((p, i) => {
      if (typeof p.nodePort === "number" && p.nodePort !== 0)
        out.push(forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  out.push(...duplicatePortErrors(ports));
  if (spec.allocateLoadBalancerNodePorts != null && type !== "LoadBalancer")
    out.push(
      forbidden("spec.allocateLoadBalancerNodePorts", "may only be used when `type` is 'LoadBalancer'"),
    );
  return out;
}
