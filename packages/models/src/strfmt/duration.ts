/**
 * kube-openapi strfmt's `duration`: Go's time.ParseDuration, and failing that its "scala" fallback,
 * which scans for every `<digits> <letters>` run anywhere in the string and accepts the string when
 * any run names a known unit. Hand-written: no maintained library has Go's duration grammar.
 */

/** Units Go's time.ParseDuration knows (both micro signs), in nanoseconds. */
const GO_UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  "\u00b5s": 1_000n,
  "\u03bcs": 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX = 1n << 63n;

/** One `<number><unit>` of a Go duration: the rest of the string and the nanoseconds, or undefined. */
function goTerm(s: string): { rest: string; ns: bigint } | undefined {
  const m = /^(\d*)(?:\.(\d*))?([^.\d]*)/.exec(s);
  if (!m || (m[1] === "" && (m[2] ?? "") === "")) return undefined;
  const unit = GO_UNITS[m[3] as string];
  const whole = BigInt(m[1] || "0");
  if (unit === undefined || whole > MAX / unit) return undefined;
  const frac = m[2] ?? "";
  const fracNs = frac === "" ? 0n : (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
  return { rest: s.slice(m[0].length), ns: whole * unit + fracNs };
}

/** Go's time.ParseDuration: `[-+]` then one or more `<decimal><unit>`, or `0`; within ±2^63 ns. */
export function isGoDuration(input: string): boolean {
  const neg = input.startsWith("-");
  let s = /^[-+]/.test(input) ? input.slice(1) : input;
  if (s === "0") return true;
  if (s === "") return false;
  let total = 0n;
  while (s !== "") {
    const term = goTerm(s);
    if (!term) return false;
    total += term.ns;
    if (total > MAX) return false;
    s = term.rest;
  }
  return neg || total < MAX;
}

/** strfmt's unit spellings: a unit is equal to one (ignoring case), or starts with the last. */
const FALLBACK_UNITS = [
  ["ns", "nano"],
  ["us", "\u00b5s", "micro"],
  ["ms", "milli"],
  ["s", "sec"],
  ["m", "min"],
  ["h", "hr", "hour"],
  ["d", "day"],
  ["w", "wk", "week"],
];
const INT64_MAX = (1n << 63n) - 1n;

/** strfmt's fallback: Go's \d and \s are ASCII; a count past int64 fails the whole string. */
function isFallbackDuration(s: string): boolean {
  let ok = false;
  for (const m of s.matchAll(/(\d+)[\t\n\f\r ]*([A-Za-z\u00b5]+)/g)) {
    if (BigInt(m[1] as string) > INT64_MAX) return false;
    const unit = (m[2] as string).toLowerCase();
    ok ||= FALLBACK_UNITS.some((variants) =>
      variants.some((v, i) => v === unit || (i === variants.length - 1 && unit.startsWith(v))),
    );
  }
  return ok;
}

export function isDuration(s: string): boolean {
  return isGoDuration(s) || isFallbackDuration(s);
}
