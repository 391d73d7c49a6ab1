/**
 * Evaluating a pod against a level and version (upstream: the policy package's check registry).
 * Checks run in upstream's order (its source files' order, in which they register): at the
 * baseline level the baseline checks; at the restricted level the baseline checks but those a
 * restricted check replaces at that version, then the restricted checks. A version past the newest
 * any check names evaluates as that newest version; `latest` too.
 */
import {
  hostNamespacesCheck,
  hostPathVolumesCheck,
  hostPortsCheck,
  hostProbesCheck,
  windowsHostProcessCheck,
} from "./checks-host.js";
import { procMountBaselineCheck, procMountRestrictedCheck, sysctlsCheck } from "./checks-kernel.js";
import {
  allowPrivilegeEscalationCheck,
  capabilitiesBaselineCheck,
  capabilitiesRestrictedCheck,
  privilegedCheck,
} from "./checks-privilege.js";
import {
  appArmorProfileCheck,
  seccompProfileBaselineCheck,
  seccompProfileRestrictedCheck,
  seLinuxOptionsCheck,
} from "./checks-profiles.js";
import { runAsNonRootCheck, runAsUserCheck } from "./checks-user.js";
import { restrictedVolumesCheck } from "./checks-volumes.js";
import type { Check, CheckFn, CheckResult, Json, Level } from "./model.js";

const CHECKS: readonly Check[] = [
  allowPrivilegeEscalationCheck,
  appArmorProfileCheck,
  capabilitiesBaselineCheck,
  capabilitiesRestrictedCheck,
  hostNamespacesCheck,
  hostPathVolumesCheck,
  hostPortsCheck,
  hostProbesCheck,
  privilegedCheck,
  procMountBaselineCheck,
  procMountRestrictedCheck,
  restrictedVolumesCheck,
  runAsNonRootCheck,
  runAsUserCheck,
  seLinuxOptionsCheck,
  seccompProfileBaselineCheck,
  seccompProfileRestrictedCheck,
  sysctlsCheck,
  windowsHostProcessCheck,
];

/** The newest minor version any check names: `latest` and newer versions evaluate as it. */
export const MAX_MINOR = Math.max(...CHECKS.flatMap((c) => c.versions.map((v) => v.minor)));

/** A policy version: a minor version of 1.x, or "latest". */
export type Version = number | "latest";

export interface LevelVersion {
  readonly level: Level;
  readonly version: Version;
}

export const levelVersionString = (lv: LevelVersion): string =>
  `${lv.level}:${lv.version === "latest" ? "latest" : `v1.${lv.version}`}`;

/** The check's function for a version, or undefined before its first one. */
function atVersion(check: Check, minor: number): CheckFn | undefined {
  let found: CheckFn | undefined;
  for (const v of check.versions) if (v.minor <= minor) found = v.fn;
  return found;
}

const BY_ID = new Map(CHECKS.map((c) => [c.id, c]));
/** checksFor's answers, computed once per level and version (the registry is fixed). */
const resolved = new Map<string, CheckFn[]>();

/** The checks of a level at a minor version, in order; each with its function for that version. */
function checksFor(level: "baseline" | "restricted", minor: number): CheckFn[] {
  const key = `${level}:${minor}`;
  const known = resolved.get(key);
  if (known) return known;
  const fns = resolveChecks(level, minor);
  resolved.set(key, fns);
  return fns;
}

function resolveChecks(level: "baseline" | "restricted", minor: number): CheckFn[] {
  const at = (c: Check) => atVersion(c, minor);
  const replaced = (c: Check) => {
    const by = c.replacedBy === undefined ? undefined : BY_ID.get(c.replacedBy);
    return by !== undefined && at(by) !== undefined;
  };
  const baseline = CHECKS.filter((c) => c.level === "baseline" && (level === "baseline" || !replaced(c)));
  const restricted = level === "restricted" ? CHECKS.filter((c) => c.level === "restricted") : [];
  return [...baseline, ...restricted].map(at).filter((f): f is CheckFn => f !== undefined);
}

/** The refused checks' answers, in order; empty when the pod meets the level. */
export function evaluatePod(lv: LevelVersion, meta: Json, spec: Json): CheckResult[] {
  if (lv.level === "privileged") return [];
  const minor = lv.version === "latest" ? MAX_MINOR : Math.min(lv.version, MAX_MINOR);
  return checksFor(lv.level, minor)
    .map((check) => check(meta, spec))
    .filter((r) => !r.allowed);
}

/** `reason (detail), reason`: the message of refused checks. */
export const forbiddenDetail = (results: readonly CheckResult[]): string =>
  results.map((r) => (r.detail ? `${r.reason} (${r.detail})` : r.reason)).join(", ");

/** The reasons alone, as a namespace's existing pods are summarised. */
export const forbiddenReason = (results: readonly CheckResult[]): string =>
  results.map((r) => r.reason).join(", ");
