/**
 * A pod's /status write as kube-apiserver 1.37 validates it (ValidatePodStatusUpdate): custom
 * condition types are qualified names, a new nominated node is a node name, the QoS class never
 * changes, containers that may not restart stay terminated, resource claim statuses name the pod's
 * claims, and pod and host IPs are IPs, at most one of each family.
 */
import {
  arr,
  duplicate,
  type FieldError,
  forbidden,
  immutable,
  invalid,
  obj,
  str,
} from "../../validation/field-errors.js";
import { legacyIpErrors } from "../../validation/ip-rules.js";
import { dns1123SubdomainProblems } from "../../validation/name-formats.js";
import { qualifiedNameProblems } from "../../validation/object-meta.js";

type Json = Record<string, unknown>;

/** Conditions the kubelet and scheduler own; any other type is a qualified name. */
const SYSTEM_CONDITIONS = new Set(["PodScheduled", "Ready", "Initialized"]);

function conditionErrors(status: Json): FieldError[] {
  return arr(status.conditions).flatMap((c, i) => {
    const type = str(obj(c).type);
    if (SYSTEM_CONDITIONS.has(type)) return [];
    return qualifiedNameProblems(type).map((m) => invalid(`status.conditions[${i}].Type`, type, m));
  });
}

function nominatedNodeErrors(status: Json, old: Json): FieldError[] {
  const name = str(status.nominatedNodeName);
  if (name === "" || name === str(old.nominatedNodeName)) return [];
  return dns1123SubdomainProblems(name).map((m) => invalid("status.nominatedNodeName", name, m));
}

/**
 * ValidateContainerStateTransition: a terminated container of a pod that does not restart it
 * (`restarts` says which may) stays terminated.
 */
function stateTransitionErrors(
  now: unknown,
  before: unknown,
  field: string,
  restarts: (old: Json) => boolean,
): FieldError[] {
  const out: FieldError[] = [];
  arr(before).forEach((o, i) => {
    const old = obj(o);
    if (obj(old.state).terminated === undefined || restarts(old)) return;
    for (const n of arr(now))
      if (str(obj(n).name) === str(old.name) && obj(obj(n).state).terminated === undefined)
        out.push(forbidden(`${field}[${i}].state`, "may not be transitioned to non-terminated state"));
  });
  return out;
}

function containerStateErrors(status: Json, old: Json, spec: Json): FieldError[] {
  const policy = str(spec.restartPolicy);
  const exitedBadly = (c: Json) => obj(obj(c.state).terminated).exitCode !== 0;
  const byPolicy = (c: Json) => policy === "Always" || (policy === "OnFailure" && exitedBadly(c));
  // Init containers restart with the pod's policy, and sidecars (restartPolicy Always) always do.
  const sidecars = new Set(
    arr(spec.initContainers)
      .filter((c) => str(obj(c).restartPolicy) === "Always")
      .map((c) => str(obj(c).name)),
  );
  return [
    ...stateTransitionErrors(
      status.containerStatuses,
      old.containerStatuses,
      "status.containerStatuses",
      byPolicy,
    ),
    ...stateTransitionErrors(
      status.initContainerStatuses,
      old.initContainerStatuses,
      "status.initContainerStatuses",
      (c) => byPolicy(c) || sidecars.has(str(c.name)),
    ),
    ...stateTransitionErrors(
      status.ephemeralContainerStatuses,
      old.ephemeralContainerStatuses,
      "status.ephemeralContainerStatuses",
      () => false,
    ),
  ];
}

function claimStatusErrors(status: Json, spec: Json): FieldError[] {
  const claims = new Set(arr(spec.resourceClaims).map((c) => str(obj(c).name)));
  const seen = new Set<string>();
  const out: FieldError[] = [];
  arr(status.resourceClaimStatuses).forEach((s, i) => {
    const name = str(obj(s).name);
    const at = `status.resourceClaimStatuses[${i}].name`;
    if (!claims.has(name))
      out.push(invalid(at, name, "must match the name of an entry in `spec.resourceClaims`"));
    if (seen.has(name)) out.push(duplicate(at, name));
    seen.add(name);
  });
  return out;
}

/** podIPs or hostIPs: each an IP (unchanged old ones tolerated), at most one per family. */
function ipListErrors(list: unknown, oldList: unknown, field: string): FieldError[] {
  const ips = arr(list).map((p) => str(obj(p).ip));
  const oldIps = arr(oldList).map((p) => str(obj(p).ip));
  const out = ips.flatMap((ip, i) => legacyIpErrors(`${field}[${i}]`, ip, oldIps));
  if (ips.length > 1) {
    const families = ips.map((ip) => (ip.includes(":") ? 6 : 4));
    if (ips.length > 2 || families[0] === families[1])
      out.push(
        invalid(
          field,
          ips.map((ip) => ({ IP: ip })),
          "may specify no more than one IP for each IP family",
        ),
      );
  }
  return out;
}

/** The errors of a /status write of `pod` over the stored `old`. */
export function podStatusErrors(pod: Json, old: Json | undefined): FieldError[] {
  const status = obj(pod.status);
  const before = obj(old?.status);
  const spec = obj(old?.spec ?? pod.spec);
  const out = [...conditionErrors(status), ...nominatedNodeErrors(status, before)];
  if (str(status.qosClass) !== str(before.qosClass))
    out.push(immutable("status.qosClass", str(status.qosClass)));
  out.push(...containerStateErrors(status, before, spec), ...claimStatusErrors(status, obj(pod.spec)));
  out.push(...ipListErrors(status.podIPs, before.podIPs, "status.podIPs"));
  out.push(...ipListErrors(status.hostIPs, before.hostIPs, "status.hostIPs"));
  return out;
}
