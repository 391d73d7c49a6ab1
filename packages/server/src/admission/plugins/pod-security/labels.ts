/**
 * A namespace's Pod Security labels (`pod-security.kubernetes.io/{enforce,audit,warn}` and their
 * `-version`) read into the policy it evaluates (upstream: api.PolicyToEvaluate). Missing labels
 * take the defaults (privileged, latest: kube-apiserver's without an admission configuration). A
 * bad enforce level reads as restricted, a bad audit or warn level as privileged (fail closed for
 * enforcement, open for the rest), a bad version as latest; each bad label is also an error. An
 * unlabelled warn mode follows a stricter enforce mode.
 */

import type { LevelVersion, Version } from "./evaluate.js";
import type { Level } from "./model.js";

export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

export interface LabelError {
  readonly label: string;
  readonly value: string;
  readonly message: string;
}

const PREFIX = "pod-security.kubernetes.io/";
const LEVELS: readonly Level[] = ["privileged", "baseline", "restricted"];
const DEFAULT: LevelVersion = { level: "privileged", version: "latest" };

function parseVersion(value: string): Version | undefined {
  if (value === "latest") return "latest";
  const m = /^v1\.(0|[1-9][0-9]*)$/.exec(value);
  return m ? Number(m[1]) : undefined;
}

function readMode(
  labels: Record<string, unknown>,
  mode: "enforce" | "audit" | "warn",
  errors: LabelError[],
): LevelVersion {
  let { level, version } = DEFAULT;
  const levelLabel = PREFIX + mode;
  const rawLevel = labels[levelLabel];
  if (typeof rawLevel === "string") {
    if ((LEVELS as readonly string[]).includes(rawLevel)) level = rawLevel as Level;
    else {
      level = mode === "enforce" ? "restricted" : "privileged";
      errors.push({ label: levelLabel, value: rawLevel, message: `must be one of ${LEVELS.join(", ")}` });
    }
  }
  const versionLabel = `${levelLabel}-version`;
  const rawVersion = labels[versionLabel];
  if (typeof rawVersion === "string") {
    const parsed = parseVersion(rawVersion);
    if (parsed === undefined)
      errors.push({ label: versionLabel, value: rawVersion, message: 'must be "latest" or "v1.x"' });
    version = parsed ?? "latest";
  }
  return { level, version };
}

export function policyOf(labels: unknown): { policy: Policy; errors: LabelError[] } {
  const l = typeof labels === "object" && labels !== null ? (labels as Record<string, unknown>) : {};
  const errors: LabelError[] = [];
  const enforce = readMode(l, "enforce", errors);
  const audit = readMode(l, "audit", errors);
  let warn = readMode(l, "warn", errors);
  // Unlabelled, warn follows a stricter enforce level, so that workloads (which enforcement does not
  // refuse) are warned about what their pods would break.
  if (
    !(`${PREFIX}warn` in l) &&
    !(`${PREFIX}warn-version` in l) &&
    compareLevels(enforce.level, warn.level) > 0
  )
    warn = enforce;
  return { policy: { enforce, audit, warn }, errors };
}

export const sameLevelVersion = (a: LevelVersion, b: LevelVersion): boolean =>
  a.level === b.level && a.version === b.version;

const RANK: Record<Level, number> = { privileged: 0, baseline: 1, restricted: 2 };
export const compareLevels = (a: Level, b: Level): number => Math.sign(RANK[a] - RANK[b]);
