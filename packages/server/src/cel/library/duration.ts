/**
 * A schema string of `format: duration` as a CEL duration, the way the
 * apiserver converts one: Go's time.ParseDuration syntax ("1h30m", "-1.5s"),
 * or go-openapi's "<number> <unit>" with days and weeks ("3 days", "2w").
 */
import { Environment } from "@marcbachmann/cel-js";

/** The evaluator's duration class, which it does not export: taken from a value it makes. */
type DurationCtor = new (seconds: bigint, nanos: number) => unknown;
let durationCtor: DurationCtor | undefined;
const makeDuration = (nanos: bigint): unknown => {
  durationCtor ??= (new Environment().evaluate("duration('0s')") as object).constructor as DurationCtor;
  const sign = nanos < 0n ? -1n : 1n;
  const abs = nanos * sign;
  return new durationCtor((abs / 1_000_000_000n) * sign, Number((abs % 1_000_000_000n) * sign));
};

const SECOND = 1_000_000_000n;
const MINUTE = 60n * SECOND;
const HOUR = 60n * MINUTE;
const DAY = 24n * HOUR;
const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: SECOND,
  m: MINUTE,
  h: HOUR,
};
const GO_DURATION = /^[-+]?(?:0|(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/;
const GO_PART = /(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/g;

/** go-openapi's unit names beyond Go's. */
const WORD_UNITS: Record<string, bigint> = {
  d: DAY,
  day: DAY,
  days: DAY,
  w: 7n * DAY,
  week: 7n * DAY,
  weeks: 7n * DAY,
  hour: HOUR,
  hours: HOUR,
  hr: HOUR,
  minute: MINUTE,
  minutes: MINUTE,
  min: MINUTE,
  second: SECOND,
  seconds: SECOND,
  sec: SECOND,
};

function goNanos(s: string): bigint {
  let total = 0n;
  for (const [, int = "", frac = "", unit = "s"] of s.matchAll(GO_PART)) {
    const per = UNIT_NANOS[unit] as bigint;
    const digits = frac.slice(0, 18).padEnd(18, "0");
    total += BigInt(int || "0") * per + (BigInt(digits) * per) / 10n ** 18n;
  }
  return s.startsWith("-") ? -total : total;
}

/** The duration a schema string denotes, or undefined when it is none. */
export function schemaDuration(s: string): unknown {
  if (GO_DURATION.test(s)) return makeDuration(goNanos(s));
  const m = /^(-\s?)?(\d+)\s*([A-Za-zµ]+)$/.exec(s);
  if (!m) return undefined;
  const unit = UNIT_NANOS[m[3] as string] ?? WORD_UNITS[(m[3] as string).toLowerCase()];
  if (unit === undefined) return undefined;
  return makeDuration(BigInt(m[2] as string) * unit * (m[1] ? -1n : 1n));
}

/** string(duration): the seconds in decimal with an "s", as cel-go prints a duration. */
function durationText(d: { seconds: bigint; nanos: number }): string {
  const total = d.seconds * 1_000_000_000n + BigInt(d.nanos);
  const abs = total < 0n ? -total : total;
  const frac = (abs % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  return `${total < 0n ? "-" : ""}${abs / 1_000_000_000n}${frac ? `.${frac}` : ""}s`;
}

/** string(timestamp): RFC 3339 in UTC, fractional seconds without trailing zeros. */
const timestampText = (d: Date) => d.toISOString().replace(/\.?0*Z$/, "Z");

/** string() of durations and timestamps, which the evaluator does not convert. */
export function registerDurationText(env: Environment): void {
  env.registerFunction("string(google.protobuf.Duration): string", durationText);
  env.registerFunction("string(google.protobuf.Timestamp): string", timestampText);
}
