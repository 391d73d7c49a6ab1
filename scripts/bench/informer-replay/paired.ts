/**
 * Ratios against raw taken round by round. Every round runs each contender once, one after the
 * other, so two runs of one round saw the same state of the machine; on a busy or throttled
 * machine the medians of separate columns drift more than the ratio of two runs of one round does.
 */
import { percentile } from "../stats.js";
import type { RunResult } from "./contenders.js";

export interface PairedRatio {
  readonly median: number;
  /** The 25th and 75th percentiles of the per-round ratios. */
  readonly low: number;
  readonly high: number;
  /** Rounds whose ratio met `goal`. */
  readonly met: number;
  readonly rounds: number;
}

/** Per-round ratios value(a) / value(b) of two contenders' runs (round i of each). */
export function pairedRatio(
  a: readonly RunResult[],
  b: readonly RunResult[],
  value: (r: RunResult) => number,
  goal: (ratio: number) => boolean,
): PairedRatio {
  const n = Math.min(a.length, b.length);
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) ratios.push(value(a[i] as RunResult) / value(b[i] as RunResult));
  ratios.sort((x, y) => x - y);
  return {
    median: percentile(ratios, 50),
    low: percentile(ratios, 25),
    high: percentile(ratios, 75),
    met: ratios.filter(goal).length,
    rounds: n,
  };
}

const syncMs = (r: RunResult) => r.syncMs;
const eventsPerSec = (r: RunResult) => r.events / r.watchMs;

function describe(p: PairedRatio): string {
  return `${p.median.toFixed(2)}× [${p.low.toFixed(2)}–${p.high.toFixed(2)}]`;
}

/**
 * The issues' goals against raw, paired by round: sync ≤ 1.15× (JSON) or ≤ 1.0× (protobuf), watch
 * ≥ 0.9× raw's events per second.
 */
export function printPaired(results: ReadonlyMap<string, RunResult[]>): void {
  const raw = results.get("raw");
  if (raw === undefined || raw.length === 0) return;
  console.log(
    "\nPaired with raw round by round: median ratio [25th–75th percentile], rounds meeting the goal",
  );
  for (const [contender, runs] of results) {
    if (contender === "raw" || runs.length === 0) continue;
    const syncGoal = contender.includes("protobuf") ? 1.0 : 1.15;
    const sync = pairedRatio(runs, raw, syncMs, (x) => x <= syncGoal);
    const watch = pairedRatio(runs, raw, eventsPerSec, (x) => x >= 0.9);
    console.log(
      `${contender.padEnd(30)} sync ${describe(sync)} ≤ ${syncGoal.toFixed(2)} in ${sync.met}/${sync.rounds}` +
        `   watch ${describe(watch)} ≥ 0.90 in ${watch.met}/${watch.rounds}`,
    );
  }
}
