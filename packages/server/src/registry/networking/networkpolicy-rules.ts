/**
 * NetworkPolicy validation as kube-apiserver applies it: the pod selector, each rule's ports
 * (protocol, number or name, endPort) and peers (exactly one kind of peer when an ipBlock is
 * given; ipBlock CIDRs and their strict-subset exceptions), and the policy types.
 */
import type { FieldError } from "../../api/status.js";
import {
  arr,
  FieldErrors,
  forbidden,
  invalid,
  isSet,
  type Json,
  notSupported,
  obj,
  required,
  str,
  strs,
} from "../../validation/field-errors.js";
import { portNameProblems, portNumberProblems } from "../../validation/format-rules.js";
import { legacyCidrErrors, parseCidrSloppy, strictSubset } from "../../validation/ip-rules.js";
import { labelSelectorErrors } from "../../validation/selector-rules.js";
import { child } from "../default-fields.js";

const PROTOCOLS = ["TCP", "UDP", "SCTP"];
const POLICY_TYPES = ["Ingress", "Egress"];

function portErrors(port: Json, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(port.protocol) && !PROTOCOLS.includes(str(port.protocol)))
    errs.push(notSupported(`${field}.protocol`, str(port.protocol), PROTOCOLS));
  const endPort = port.endPort;
  if (typeof port.port === "number") {
    errs.push(...portNumberProblems(port.port).map((m) => invalid(`${field}.port`, port.port, m)));
    if (typeof endPort === "number") {
      if (endPort < port.port)
        errs.push(invalid(`${field}.endPort`, endPort, "must be greater than or equal to `port`"));
      errs.push(...portNumberProblems(endPort).map((m) => invalid(`${field}.endPort`, endPort, m)));
    }
  } else if (typeof port.port === "string") {
    if (isSet(endPort))
      errs.push(invalid(`${field}.endPort`, endPort, "may not be specified when `port` is non-numeric"));
    errs.push(...portNameProblems(port.port).map((m) => invalid(`${field}.port`, port.port, m)));
  } else if (isSet(endPort))
    errs.push(invalid(`${field}.endPort`, endPort, "may not be specified when `port` is not specified"));
  return errs;
}

function ipBlockErrors(block: Json, field: string, oldCidrs: readonly string[], out: FieldErrors): void {
  const cidr = str(block.cidr);
  if (cidr === "") {
    out.covered(required(`${field}.cidr`));
    return;
  }
  out.add(...legacyCidrErrors(`${field}.cidr`, cidr, oldCidrs));
  const outer = parseCidrSloppy(cidr);
  if (!outer) return;
  strs(block.except).forEach((e, i) => {
    const path = `${field}.except[${i}]`;
    out.add(...legacyCidrErrors(path, e, oldCidrs));
    const inner = parseCidrSloppy(e);
    if (inner && !strictSubset(outer, inner)) out.add(invalid(path, e, "must be a strict subset of `cidr`"));
  });
}

function peerErrors(peer: Json, field: string, oldCidrs: readonly string[], out: FieldErrors): void {
  let peers = 0;
  for (const key of ["podSelector", "namespaceSelector"]) {
    if (!isSet(peer[key])) continue;
    peers++;
    out.add(...labelSelectorErrors(peer[key], `${field}.${key}`));
  }
  if (isSet(peer.ipBlock)) {
    peers++;
    ipBlockErrors(obj(peer.ipBlock), `${field}.ipBlock`, oldCidrs, out);
  }
  if (peers === 0) out.add(required(field, "must specify a peer"));
  else if (peers > 1 && isSet(peer.ipBlock))
    out.add(forbidden(field, "may not specify both ipBlock and another peer"));
}

function rulesErrors(
  spec: Json,
  key: "ingress" | "egress",
  oldCidrs: readonly string[],
  out: FieldErrors,
): void {
  const peersKey = key === "ingress" ? "from" : "to";
  arr(spec[key]).forEach((r, i) => {
    const rule = obj(r);
    const field = `spec.${key}[${i}]`;
    arr(rule.ports).forEach((p, j) => {
      out.add(...portErrors(obj(p), `${field}.ports[${j}]`));
    });
    arr(rule[peersKey]).forEach((p, j) => {
      peerErrors(obj(p), `${field}.${peersKey}[${j}]`, oldCidrs, out);
    });
  });
}

/** Every CIDR of the stored policy: an update may keep a CIDR that stricter checks now refuse. */
function cidrsOf(policy: Json | undefined): string[] {
  if (!policy) return [];
  const spec = obj(policy.spec);
  const peers = [
    ...arr(spec.ingress).flatMap((r) => arr(obj(r).from)),
    ...arr(spec.egress).flatMap((r) => arr(obj(r).to)),
  ];
  return peers.flatMap((p) => {
    const block = obj(obj(p).ipBlock);
    return [str(block.cidr), ...strs(block.except)];
  });
}

export function networkPolicyErrors(policy: Json, old: Json | undefined): FieldError[] {
  const spec = obj(policy.spec);
  const out = new FieldErrors();
  const oldCidrs = cidrsOf(old);
  const oldSelectorInvalid =
    old !== undefined && labelSelectorErrors(obj(old.spec).podSelector, "").length > 0;
  out.add(
    ...labelSelectorErrors(spec.podSelector ?? {}, "spec.podSelector", {
      allowInvalidLabelValues: oldSelectorInvalid,
    }),
  );
  rulesErrors(spec, "ingress", oldCidrs, out);
  rulesErrors(spec, "egress", oldCidrs, out);
  const types = strs(spec.policyTypes);
  if (types.length > 2)
    out.add(invalid("spec.policyTypes", types, "may not specify more than two policyTypes"));
  else
    types.forEach((t, i) => {
      if (!POLICY_TYPES.includes(t)) out.add(notSupported(`spec.policyTypes[${i}]`, t, POLICY_TYPES));
    });
  return out.list();
}

/** networking/v1 defaulting: ports are TCP; policy types follow the rules given. */
export function defaultNetworkPolicy(policy: Json): void {
  const s = child(policy, "spec");
  for (const r of [...arr(s.ingress), ...arr(s.egress)])
    for (const p of arr(obj(r).ports))
      if (typeof p === "object" && p !== null && !isSet((p as Json).protocol)) (p as Json).protocol = "TCP";
  if (strs(s.policyTypes).length === 0)
    s.policyTypes = arr(s.egress).length > 0 ? ["Ingress", "Egress"] : ["Ingress"];
}
