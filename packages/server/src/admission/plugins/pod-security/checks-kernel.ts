/**
 * Checks of kernel interfaces: the /proc mount (baseline from 1.35 lets a pod in a user namespace,
 * `hostUsers: false`, unmask it; restricted never) and sysctls (a safe list that grew by version).
 */
import {
  ALLOWED,
  arr,
  type Check,
  type CheckResult,
  containersOf,
  containersPhrase,
  type Json,
  joinQuote,
  nameOf,
  podSc,
  refuse,
  scOf,
  sortedSet,
  str,
} from "./model.js";

function procMountRestricted(_meta: Json, spec: Json): CheckResult {
  const names: string[] = [];
  const types: string[] = [];
  for (const c of containersOf(spec)) {
    const mount = scOf(c)?.procMount;
    if (typeof mount !== "string" || mount === "Default") continue;
    names.push(nameOf(c));
    types.push(mount);
  }
  if (names.length === 0) return ALLOWED;
  return refuse(
    "procMount",
    `${containersPhrase(names)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`,
  );
}

const procMountBaseline = (meta: Json, spec: Json): CheckResult =>
  spec.hostUsers === false ? ALLOWED : procMountRestricted(meta, spec);

const SYSCTLS_1_0 = [
  "kernel.shm_rmid_forced",
  "net.ipv4.ip_local_port_range",
  "net.ipv4.tcp_syncookies",
  "net.ipv4.ping_group_range",
  "net.ipv4.ip_unprivileged_port_start",
];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, "net.ipv4.ip_local_reserved_ports"];
const SYSCTLS_1_29 = [
  ...SYSCTLS_1_27,
  "net.ipv4.tcp_keepalive_time",
  "net.ipv4.tcp_fin_timeout",
  "net.ipv4.tcp_keepalive_intvl",
  "net.ipv4.tcp_keepalive_probes",
];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem"];

function sysctls(allowed: readonly string[]) {
  const safe = new Set(allowed);
  return (_meta: Json, spec: Json): CheckResult => {
    const bad = arr(podSc(spec)?.sysctls)
      .map((s) => str(s.name))
      .filter((n) => !safe.has(n));
    return bad.length > 0 ? refuse("forbidden sysctls", bad.join(", ")) : ALLOWED;
  };
}

export const procMountBaselineCheck: Check = {
  id: "procMount_baseline",
  level: "baseline",
  replacedBy: "procMount_restricted",
  versions: [
    { minor: 0, fn: procMountRestricted },
    { minor: 35, fn: procMountBaseline },
  ],
};
export const procMountRestrictedCheck: Check = {
  id: "procMount_restricted",
  level: "restricted",
  versions: [{ minor: 35, fn: procMountRestricted }],
};
export const sysctlsCheck: Check = {
  id: "sysctls",
  level: "baseline",
  versions: [
    { minor: 0, fn: sysctls(SYSCTLS_1_0) },
    { minor: 27, fn: sysctls(SYSCTLS_1_27) },
    { minor: 29, fn: sysctls(SYSCTLS_1_29) },
    { minor: 32, fn: sysctls(SYSCTLS_1_32) },
  ],
};
