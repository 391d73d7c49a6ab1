/**
 * The Kubernetes semver library for CEL (version 1, with normalization):
 * semver(), isSemver(), major/minor/patch and comparisons. Parsing follows
 * the Semantic Versioning 2.0.0 grammar as the apiserver's parser applies it:
 * exactly MAJOR.MINOR.PATCH, no leading zeros in numbers, non-empty dot-separated
 * alphanumeric pre-release and build identifiers. Normalization drops one
 * leading "v", fills a missing minor and patch with 0 and strips leading zeros.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { CelRuntimeError, succeeds } from "./values.js";

const UINT64_MAX = 2n ** 64n - 1n;
const IDENT = /^[0-9A-Za-z-]+$/;
const NUMERIC = /^[0-9]+$/;

export class Semver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly string[],
  ) {}

  compare(o: Semver): number {
    for (const k of ["major", "minor", "patch"] as const)
      if (this[k] !== o[k]) return this[k] < o[k] ? -1 : 1;
    // A version without pre-release identifiers ranks above one with them.
    if (this.pre.length === 0 || o.pre.length === 0) return Math.sign(o.pre.length - this.pre.length);
    for (let i = 0; i < Math.min(this.pre.length, o.pre.length); i++) {
      const c = comparePart(this.pre[i] as string, o.pre[i] as string);
      if (c !== 0) return c;
    }
    return Math.sign(this.pre.length - o.pre.length);
  }
}

/** Numeric identifiers compare as numbers and rank below alphanumeric ones. */
function comparePart(a: string, b: string): number {
  const na = NUMERIC.test(a);
  const nb = NUMERIC.test(b);
  if (na && nb) return Math.sign(Number(BigInt(a) - BigInt(b)));
  if (na !== nb) return na ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function number(part: string, what: string): bigint {
  // An empty number passes the character check and fails Go's integer parse.
  if (part === "") throw new CelRuntimeError('strconv.ParseUint: parsing "": invalid syntax');
  if (!NUMERIC.test(part))
    throw new CelRuntimeError(`Invalid character(s) found in ${what} number "${part}"`);
  if (part.length > 1 && part.startsWith("0"))
    throw new CelRuntimeError(
      `${what[0]?.toUpperCase()}${what.slice(1)} number must not contain leading zeroes "${part}"`,
    );
  const n = BigInt(part);
  if (n > UINT64_MAX)
    throw new CelRuntimeError(`strconv.ParseUint: parsing ${JSON.stringify(part)}: value out of range`);
  return n;
}

function identifiers(text: string, what: string, numericNoZero: boolean): string[] {
  const parts = text.split(".");
  for (const p of parts) {
    if (p === "") throw new CelRuntimeError(`${what} is empty`);
    if (!IDENT.test(p)) throw new CelRuntimeError(`Invalid character(s) found in ${what} "${p}"`);
    if (numericNoZero && NUMERIC.test(p) && p.length > 1 && p.startsWith("0"))
      throw new CelRuntimeError(`${what} must not contain leading zeroes "${p}"`);
  }
  return parts;
}

export function parseSemver(s: string): Semver {
  if (s === "") throw new CelRuntimeError("Version string empty");
  const parts = s.split(".");
  if (parts.length < 3) throw new CelRuntimeError("No Major.Minor.Patch elements found");
  const [major = "", minor = "", ...restParts] = parts;
  const rest = restParts.join(".");
  const plus = rest.indexOf("+");
  const core = plus >= 0 ? rest.slice(0, plus) : rest;
  const dash = core.indexOf("-");
  const patch = dash >= 0 ? core.slice(0, dash) : core;
  const pre = dash >= 0 ? identifiers(core.slice(dash + 1), "Prerelease", true) : [];
  if (plus >= 0) identifiers(rest.slice(plus + 1), "Build meta data", false);
  return new Semver(number(major, "major"), number(minor, "minor"), number(patch, "patch"), pre);
}

/** Drops a leading "v", strips leading zeros of the first three parts, fills a missing minor and patch. */
export function normalizeSemver(s: string): Semver {
  const parts = s.replace(/^v/, "").split(".");
  const head = parts.slice(0, 2);
  const tail = parts.slice(2).join(".");
  const cleaned = [...head, ...(parts.length > 2 ? [tail] : [])].map((p) => {
    if (p.length <= 1) return p;
    const t = p.replace(/^0+/, "");
    return t === "" || !/^[0-9]/.test(t) ? `0${t}` : t;
  });
  if (cleaned.length < 3) {
    if (/[+-]/.test(cleaned.at(-1) ?? ""))
      throw new CelRuntimeError("short version cannot contain PreRelease/Build meta data");
    while (cleaned.length < 3) cleaned.push("0");
  }
  return parseSemver(cleaned.join("."));
}

export function registerSemver(env: Environment): void {
  const S = "kubernetes.Semver";
  env.registerType(S, Semver);
  env.registerFunction(`semver(string): ${S}`, parseSemver);
  env.registerFunction(`semver(string, bool): ${S}`, (s: string, n: boolean) =>
    n ? normalizeSemver(s) : parseSemver(s),
  );
  env.registerFunction("isSemver(string): bool", (s: string) => succeeds(() => parseSemver(s)));
  env.registerFunction("isSemver(string, bool): bool", (s: string, n: boolean) =>
    succeeds(() => (n ? normalizeSemver(s) : parseSemver(s))),
  );
  env.registerOperator(`${S} == ${S}`, (a: Semver, b: Semver) => a.compare(b) === 0);
  env.registerFunction(`${S}.major(): int`, (v: Semver) => BigInt.asIntN(64, v.major));
  env.registerFunction(`${S}.minor(): int`, (v: Semver) => BigInt.asIntN(64, v.minor));
  env.registerFunction(`${S}.patch(): int`, (v: Semver) => BigInt.asIntN(64, v.patch));
  env.registerFunction(`${S}.isGreaterThan(${S}): bool`, (a: Semver, b: Semver) => a.compare(b) > 0);
  env.registerFunction(`${S}.isLessThan(${S}): bool`, (a: Semver, b: Semver) => a.compare(b) < 0);
  env.registerFunction(`${S}.compareTo(${S}): int`, (a: Semver, b: Semver) => BigInt(a.compare(b)));
}
