/**
 * The first start's floor: how far a process's first `startTestServer()` to its first answer
 * (reference-server-child.mjs's measure, issue 35's "start ≤ 25 ms") is from the least an
 * in-process HTTPS server can do for the same exchange in the same process state. Fresh processes
 * alternate between the two modes of startup-floor-child.mjs (reference, bare), so the machine's
 * load falls on both alike; it reports, per mode and phase, medians [lowest–highest] of wall time,
 * the event-loop thread's CPU time (what bounds the wall time on a quiet machine) and the process's
 * CPU time, then the reference's excess over the bare server.
 * Run: `BENCH_SERVER=built pnpm bench:startup:floor` (BENCH_PROCESSES=N per mode, default 10).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { serverExecArgv } from "./built-server.js";
import { percentile } from "./stats.js";

interface Mark {
  readonly phase: string;
  readonly wall: number;
  readonly cpu: number;
  readonly main: number | undefined;
}
type Mode = "reference" | "bare";

const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 10);
const CHILD = fileURLToPath(new URL("./startup-floor-child.mjs", import.meta.url));

function runChild(mode: Mode): Promise<Mark[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...serverExecArgv(process.execArgv), CHILD, mode],
      { maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error) return reject(error);
        const line = stdout.trim().split("\n").at(-1) ?? "";
        resolve((JSON.parse(line) as { marks: Mark[] }).marks);
      },
    );
  });
}

function spread(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const lo = (sorted[0] as number).toFixed(1);
  const hi = (sorted[sorted.length - 1] as number).toFixed(1);
  return `${percentile(sorted, 50).toFixed(1)} [${lo}–${hi}]`;
}

const medianOf = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

function report(mode: Mode, runs: readonly Mark[][]): void {
  console.log(`${mode}: ${runs.length} fresh processes, ms from the start call (medians [lowest–highest])`);
  for (const [i, { phase }] of (runs[0] ?? []).entries()) {
    const at = (of: (m: Mark) => number | undefined) =>
      runs.map((marks) => of(marks[i] as Mark)).filter((v): v is number => v !== undefined);
    const main = at((m) => m.main);
    console.log(
      `  ${phase.padEnd(13)} wall ${spread(at((m) => m.wall))}, event-loop thread CPU ` +
        `${main.length > 0 ? spread(main) : "n/a"}, process CPU ${spread(at((m) => m.cpu))}`,
    );
  }
}

async function main(): Promise<void> {
  const runs: Record<Mode, Mark[][]> = { reference: [], bare: [] };
  for (let i = 0; i < PROCESSES; i++) {
    for (const mode of ["reference", "bare"] as const) runs[mode].push(await runChild(mode));
  }
  report("reference", runs.reference);
  report("bare", runs.bare);
  const answered = (mode: Mode, of: (m: Mark) => number | undefined) =>
    medianOf(runs[mode].map((marks) => of(marks.at(-1) as Mark) ?? Number.NaN));
  for (const [label, of] of [
    ["wall", (m: Mark) => m.wall],
    ["event-loop thread CPU", (m: Mark) => m.main],
  ] as const) {
    const ref = answered("reference", of);
    const floor = answered("bare", of);
    console.log(
      `to the answer, ${label}: reference ${ref.toFixed(1)} ms, bare ${floor.toFixed(1)} ms, ` +
        `excess ${(ref - floor).toFixed(1)} ms (${(ref / floor).toFixed(2)}x)`,
    );
  }
}

await main();
