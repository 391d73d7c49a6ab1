/**
 * Issue 35's goals, by row of server-vs-real.ts's table, so the rows it is judged on stand out:
 * a ratio reference ÷ real to reach, or (the in-process start) the reference's own value.
 */
interface Goal {
  readonly label: string;
  readonly met: (ratio: number, reference: number) => boolean;
}

const atLeast = (x: number): Goal => ({ label: `≥ ${x}×`, met: (ratio) => ratio >= x });
const atMost = (x: number): Goal => ({ label: `≤ ${x}×`, met: (ratio) => ratio <= x });

/** Row patterns (protocol tag aside) and their goals; the write goal is on the sustained rows. */
const GOALS: [RegExp, Goal][] = [
  [/^(create|update|apply) c=\d+ req\/s, sustained$/, atLeast(5)],
  [/^get c=1 p50 ms$/, atMost(0.3)],
  [/^list \d+ (json|protobuf) p50 ms$/, atMost(0.3)],
  [/^watch replay \d+: deliveries\/s$/, atLeast(5)],
  [/^peak RSS MiB$/, atMost(0.5)],
  [/^contract suites .* s$/, atMost(0.33)],
  [
    /^start to first request, in process ms$/,
    { label: "≤ 25 ms", met: (_ratio, reference) => reference <= 25 },
  ],
];

/**
 * "≥ 5× met", "≤ 0.3× no", or "" for a row no goal is set on. The issue judges the workload's rows
 * over HTTP/1.1, so rows tagged with another protocol get no mark.
 */
export function goalCell(metric: string, ratio: number, reference: number): string {
  const tag = /^\[([^\]]+)\] /.exec(metric);
  if (tag !== null && tag[1] !== "http1.1") return "";
  const bare = metric.slice(tag?.[0].length ?? 0);
  const goal = GOALS.find(([pattern]) => pattern.test(bare))?.[1];
  if (goal === undefined) return "";
  return `${goal.label} ${goal.met(ratio, reference) ? "met" : "no"}`;
}
