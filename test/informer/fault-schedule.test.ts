/**
 * Scenario 25: whatever faults happened, once quiet the store equals the server's state and the
 * handlers' picture equals the store — and each object's notifications make sense on their own: no
 * add twice without a delete between, no update or delete of something unseen, no update from one
 * uid to another, and every object the handlers saw that is gone got its delete.
 *
 * 200 seeded schedules per run (see support/chaos-schedule.ts for what one does). They run in
 * batches side by side on one server, each in its own namespace with its own informer and two
 * writers; server-wide faults (compaction, restart, paused delivery) hit the whole batch.
 * KUBESDK_FAULT_SEED=<n> replays one schedule alone, <a>-<b> replays seeds a..b as one batch;
 * KUBESDK_FAULT_RUNS=<n> runs seeds 1..n (a soak).
 * Reason for reference-only: the faults are the reference server's fault controls.
 */
import { describe, expect, it } from "vitest";
import { targetKind } from "../support/target.js";
import { runSchedule, type ScheduleOutcome } from "./support/chaos-schedule.js";
import { useInformerSuite } from "./support/suite.js";

// A batch's time is mostly waiting (gaps, quiet periods), nearly the same for 8 or 40 schedules,
// while its CPU grows with its size: 25 per batch runs the 200 seeds in 8 batches instead of 25
// (about half the file's wall time at the same CPU), each batch well inside the test timeout.
const BATCH = 25;
const SHAPE = { steps: 70, maxGapMs: 15 } as const;

function seedBatches(): number[][] {
  const only = process.env.KUBESDK_FAULT_SEED;
  if (only !== undefined) {
    const [a, b = a] = only.split("-").map(Number) as [number, number?];
    return [Array.from({ length: (b as number) - a + 1 }, (_, i) => a + i)];
  }
  const runs = Number(process.env.KUBESDK_FAULT_RUNS ?? 200);
  const batches: number[][] = [];
  for (let first = 1; first <= runs; first += BATCH)
    batches.push(Array.from({ length: Math.min(BATCH, runs - first + 1) }, (_, i) => first + i));
  return batches;
}

describe.runIf(targetKind === "reference")("randomised fault schedules", () => {
  const s = useInformerSuite({ watch: { bookmarkIntervalMs: 100 } });
  const env = {
    get t() {
      return s.t;
    },
    get server() {
      return s.server;
    },
    namespace: (prefix: string) => s.namespace(prefix),
    informer: s.informer,
  };

  for (const seeds of seedBatches()) {
    const range = `${seeds[0]}-${seeds.at(-1)}`;
    it(`S25: after random fault schedules the store, the handlers' events and the server agree once quiet (seeds ${range}; replay one with KUBESDK_FAULT_SEED=<seed>, the batch with KUBESDK_FAULT_SEED=${range})`, async () => {
      s.server.faults.reseed(seeds[0] as number);
      const settled = await Promise.allSettled(seeds.map((seed) => runSchedule(env, seed, SHAPE)));
      s.server.faults.reset();
      s.server.faults.unstall();
      const failed = settled.flatMap((r, i): ScheduleOutcome[] =>
        r.status === "fulfilled"
          ? r.value.problems.length > 0
            ? [r.value]
            : []
          : [{ seed: seeds[i] as number, problems: [String(r.reason)] }],
      );
      const report = failed.map(
        (f) => `seed ${f.seed} (replay with KUBESDK_FAULT_SEED=${f.seed}):\n  ${f.problems.join("\n  ")}`,
      );
      expect(report, `failing seeds: ${failed.map((f) => f.seed).join(", ")}`).toEqual([]);
    }, 120_000);
  }
});
