/**
 * metav1.Duration in its JSON form: Go's time.Duration string ("1h2m3.5s", "150ms", "0s").
 * Hand-written because no JavaScript library speaks Go's exact duration syntax; BigInt keeps
 * the nanosecond arithmetic exact.
 */
import { WireError } from "./errors.js";

const nanosPer = { h: 3_600_000_000_000n, m: 60_000_000_000n, s: 1_000_000_000n } as const;
const maxDuration = (1n << 63n) - 1n;

/** Go's Duration.String() for a count of nanoseconds. */
export function formatDuration(nanos: number | bigint): string {
  let n = BigInt(nanos);
  const sign = n < 0n ? "-" : "";
  if (n < 0n) n = -n;
  if (n === 0n) return "0s";
  if (n < 1_000n) return `${sign}${n}ns`;
  if (n < 1_000_000n) return `${sign}${decimal(n, 3)}µs`;
  if (n < nanosPer.s) return `${sign}${decimal(n, 6)}ms`;
  const hours = n / nanosPer.h;
  const minutes = (n % nanosPer.h) / nanosPer.m;
  const seconds = decimal(n % nanosPer.m, 9);
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

/** `value / 10^digits` written with the fraction's trailing zeros (and a bare point) dropped. */
function decimal(value: bigint, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const fraction = (value % scale).toString().padStart(digits, "0").replace(/0+$/, "");
  return fraction ? `${value / scale}.${fraction}` : `${value / scale}`;
}

const unitNanos: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: nanosPer.s,
  m: nanosPer.m,
  h: nanosPer.h,
};
const durationText = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)[a-zµμ]+(?:(?:\d+(?:\.\d*)?|\.\d+)[a-zµμ]+)*$/;
const durationPart = /(\d*)(?:\.(\d*))?([a-zµμ]+)/g;

/** Nanoseconds of a Go duration string, as time.ParseDuration reads it. */
export function parseDuration(text: string): bigint {
  const invalid = () => new WireError("PROTOBUF_VALUE", `${JSON.stringify(text)} is not a duration`);
  if (text === "0" || text === "+0" || text === "-0") return 0n;
  if (!durationText.test(text)) throw invalid();
  let total = 0n;
  for (const [, whole, fraction, unit] of text.matchAll(durationPart)) {
    const perUnit = unitNanos[unit as string];
    if (perUnit === undefined) throw invalid();
    total += BigInt(whole || "0") * perUnit;
    if (fraction) total += (BigInt(fraction) * perUnit) / 10n ** BigInt(fraction.length);
  }
  if (total > maxDuration + (text.startsWith("-") ? 1n : 0n)) {
    throw new WireError("PROTOBUF_VALUE", `duration ${JSON.stringify(text)} overflows int64`);
  }
  return text.startsWith("-") ? -total : total;
}
