/**
 * CronJob schedules as robfig/cron's ParseStandard reads them (what kube-apiserver validates with):
 * five fields of numbers, names, ranges, steps and lists, or a descriptor (@daily, @every 1h, …),
 * an optional TZ=/CRON_TZ= prefix; the first problem in robfig/cron's words. Written here because
 * no JavaScript cron library reports errors in those words.
 */

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MONTHS = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const DAYS = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];
const DESCRIPTORS = new Set([
  "@yearly",
  "@annually",
  "@monthly",
  "@weekly",
  "@daily",
  "@midnight",
  "@hourly",
]);
const INT64_MAX = 2n ** 63n - 1n;

class CronError extends Error {}

/** strconv.Atoi, then robfig's non-negative check. */
function atoi(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr))
    throw new CronError(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`,
    );
  const n = BigInt(expr);
  if (n > INT64_MAX || n < -INT64_MAX - 1n)
    throw new CronError(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`,
    );
  if (n < 0n) throw new CronError(`negative number (${n}) not allowed: ${expr}`);
  return Number(n);
}

function intOrName(expr: string, b: Bounds): number {
  const named = b.names?.[expr.toLowerCase()];
  return named ?? atoi(expr);
}

function checkRange(expr: string, b: Bounds): void {
  const rangeAndStep = expr.split("/");
  const lowAndHigh = (rangeAndStep[0] as string).split("-");
  let start: number;
  let end: number;
  if (lowAndHigh[0] === "*" || lowAndHigh[0] === "?") {
    start = b.min;
    end = b.max;
  } else {
    start = intOrName(lowAndHigh[0] as string, b);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = intOrName(lowAndHigh[1] as string, b);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = atoi(rangeAndStep[1] as string);
    if (lowAndHigh.length === 1) end = b.max;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < b.min) throw new CronError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new CronError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

const DURATION_UNITS = new Set(["ns", "us", "µs", "μs", "ms", "s", "m", "h"]);

/** Why Go's time.ParseDuration refuses `d` (undefined when it parses), in its words. */
function durationProblem(d: string): string | undefined {
  const quoted = JSON.stringify(d);
  let rest = d.replace(/^[+-]/, "");
  if (rest === "0") return undefined;
  if (rest === "") return `time: invalid duration ${quoted}`;
  while (rest !== "") {
    const num = /^(\d*)(\.\d*)?/.exec(rest) as RegExpExecArray;
    if ((num[1] ?? "") === "" && (num[2] ?? "").length <= 1) return `time: invalid duration ${quoted}`;
    rest = rest.slice(num[0].length);
    const unit = /^[^\d.]*/.exec(rest)?.[0] ?? "";
    if (unit === "") return `time: missing unit in duration ${quoted}`;
    if (!DURATION_UNITS.has(unit)) return `time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`;
    rest = rest.slice(unit.length);
  }
  return undefined;
}

function parseSchedule(spec: string, validZone: (zone: string) => boolean): void {
  if (spec === "") throw new CronError("empty spec string");
  let rest = spec;
  if (rest.startsWith("TZ=") || rest.startsWith("CRON_TZ=")) {
    const space = rest.indexOf(" ");
    const zone = rest.slice(rest.indexOf("=") + 1, space < 0 ? undefined : space);
    if (!validZone(zone)) throw new CronError(`provided bad location ${zone}: unknown time zone ${zone}`);
    rest = space < 0 ? "" : rest.slice(space).trim();
  }
  if (rest.startsWith("@")) {
    if (DESCRIPTORS.has(rest)) return;
    if (rest.startsWith("@every ")) {
      const problem = durationProblem(rest.slice("@every ".length));
      if (problem !== undefined) throw new CronError(`failed to parse duration ${rest}: ${problem}`);
      return;
    }
    throw new CronError(`unrecognized descriptor: ${rest}`);
  }
  const fields = rest.split(/\s+/).filter((f) => f !== "");
  if (fields.length !== 5)
    throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(" ")}]`);
  fields.forEach((f, i) => {
    for (const expr of f.split(",").filter((e) => e !== "")) checkRange(expr, FIELDS[i] as Bounds);
  });
}

/** Why robfig/cron refuses the schedule, or undefined when it parses. */
export function cronScheduleProblem(spec: string, validZone: (zone: string) => boolean): string | undefined {
  try {
    parseSchedule(spec, validZone);
    return undefined;
  } catch (e) {
    if (e instanceof CronError) return e.message;
    throw e;
  }
}
