/**
 * Checks of a container's privileges: privileged mode and capabilities (baseline), privilege
 * escalation and dropping ALL capabilities (restricted; Windows pods exempt from 1.25 on, where
 * these Linux fields mean nothing).
 */
import {
  ALLOWED,
  type Check,
  type CheckResult,
  containersOf,
  containersPhrase,
  isWindowsPod,
  type Json,
  joinQuote,
  nameOf,
  rec,
  refuse,
  scOf,
  sortedSet,
  str,
} from "./model.js";

function privileged(_meta: Json, spec: Json): CheckResult {
  const names = containersOf(spec)
    .filter((c) => scOf(c)?.privileged === true)
    .map(nameOf);
  if (names.length === 0) return ALLOWED;
  return refuse("privileged", `${containersPhrase(names)} must not set securityContext.privileged=true`);
}

/** The runtime's default capabilities, which baseline lets a container add. */
const DEFAULT_CAPABILITIES = new Set([
  "AUDIT_WRITE",
  "CHOWN",
  "DAC_OVERRIDE",
  "FOWNER",
  "FSETID",
  "KILL",
  "MKNOD",
  "NET_BIND_SERVICE",
  "SETFCAP",
  "SETGID",
  "SETPCAP",
  "SETUID",
  "SYS_CHROOT",
]);

const capsOf = (c: Json): Json | undefined => {
  const caps = scOf(c)?.capabilities;
  return caps === undefined || caps === null ? undefined : rec(caps);
};
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);

function capabilitiesBaseline(_meta: Json, spec: Json): CheckResult {
  const bad: string[] = [];
  const caps: string[] = [];
  for (const c of containersOf(spec)) {
    const extra = list(capsOf(c)?.add).filter((x) => !DEFAULT_CAPABILITIES.has(x));
    if (extra.length === 0) continue;
    bad.push(nameOf(c));
    caps.push(...extra);
  }
  if (bad.length === 0) return ALLOWED;
  return refuse(
    "non-default capabilities",
    `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`,
  );
}

function capabilitiesRestricted(windowsExempt: boolean) {
  return (_meta: Json, spec: Json): CheckResult => {
    if (windowsExempt && isWindowsPod(spec)) return ALLOWED;
    const missingDrop: string[] = [];
    const adding: string[] = [];
    const caps: string[] = [];
    for (const c of containersOf(spec)) {
      const own = capsOf(c);
      if (!own) {
        missingDrop.push(nameOf(c));
        continue;
      }
      if (!list(own.drop).includes("ALL")) missingDrop.push(nameOf(c));
      const extra = list(own.add).filter((x) => x !== "NET_BIND_SERVICE");
      if (extra.length > 0) {
        adding.push(nameOf(c));
        caps.push(...extra);
      }
    }
    const details: string[] = [];
    if (missingDrop.length > 0)
      details.push(`${containersPhrase(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`);
    if (adding.length > 0)
      details.push(
        `${containersPhrase(adding)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`,
      );
    return details.length > 0 ? refuse("unrestricted capabilities", details.join("; ")) : ALLOWED;
  };
}

function allowPrivilegeEscalation(windowsExempt: boolean) {
  return (_meta: Json, spec: Json): CheckResult => {
    if (windowsExempt && isWindowsPod(spec)) return ALLOWED;
    const names = containersOf(spec)
      .filter((c) => scOf(c)?.allowPrivilegeEscalation !== false)
      .map(nameOf);
    if (names.length === 0) return ALLOWED;
    return refuse(
      "allowPrivilegeEscalation != false",
      `${containersPhrase(names)} must set securityContext.allowPrivilegeEscalation=false`,
    );
  };
}

export const privilegedCheck: Check = {
  id: "privileged",
  level: "baseline",
  versions: [{ minor: 0, fn: privileged }],
};
export const capabilitiesBaselineCheck: Check = {
  id: "capabilities_baseline",
  level: "baseline",
  replacedBy: "capabilities_restricted",
  versions: [{ minor: 0, fn: capabilitiesBaseline }],
};
export const capabilitiesRestrictedCheck: Check = {
  id: "capabilities_restricted",
  level: "restricted",
  versions: [
    { minor: 22, fn: capabilitiesRestricted(false) },
    { minor: 25, fn: capabilitiesRestricted(true) },
  ],
};
export const allowPrivilegeEscalationCheck: Check = {
  id: "allowPrivilegeEscalation",
  level: "restricted",
  versions: [
    { minor: 8, fn: allowPrivilegeEscalation(false) },
    { minor: 25, fn: allowPrivilegeEscalation(true) },
  ],
};
