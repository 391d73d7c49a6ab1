/**
 * Startup benchmark: how long the embedded reference server takes from the start call to its first
 * answered request, measured in fresh processes (startup-child.mjs) so that "import time" (loading
 * the modules, once per process) is apart from "start time" (per server). For startServer()
 * (first request: `GET /readyz` over TLS) and startTestServer() (first request: a list through
 * `cluster.client()`), it reports medians over the processes of: the import, the first start of
 * the process (lazy loading and JIT warm-up), and the later starts (what each further test pays).
 * When the real binaries are cached, it also times kube-apiserver + etcd, as a ratio.
 * Run: `pnpm bench:startup` (BENCH_PROCESSES=N fresh processes per entry, default 5;
 * BENCH_STARTS=N starts per process, default 10; BENCH_REAL_STARTS, default 3; BENCH_ENTRIES=server,testing picks the entries; BENCH_SERVER=built
 * runs the server's build, as published, instead of its sources through tsx: see built-server.ts).
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { serverExecArgv } from "./built-server.js";
import { percentile } from "./stats.js";

/** What one startup-child.mjs process reports over IPC. */
interface ChildReport {
  readonly importMs: number;
  /** Start call until it resolves, per start (index 0 is the first start of the process). */
  readonly startMs: readonly number[];
  /** Start call until the first request has been answered, per start. */
  readonly firstRequestMs: readonly number[];
  /**
   * CPU time (user + system) the process spent over the same span, per start: steadier than wall
   * time on a loaded machine, where the wall clock also counts waiting for a core.
   */
  readonly firstRequestCpuMs: readonly number[];
}

const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 5);
const STARTS = Number(process.env.BENCH_STARTS ?? 10);
const REAL_STARTS = Number(process.env.BENCH_REAL_STARTS ?? 3);
const ENTRIES = (process.env.BENCH_ENTRIES ?? "server,testing").split(",");
const CHILD = fileURLToPath(new URL("./startup-child.mjs", import.meta.url));

function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

function runChild(mode: "server" | "testing"): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    // The same loader flags as this process (tsx, the "source" condition), or none for a built run.
    const child = fork(CHILD, [mode, String(STARTS)], { execArgv: serverExecArgv(process.execArgv) });
    let report: ChildReport | undefined;
    child.once("message", (message) => {
      report = message as ChildReport;
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (report) resolve(report);
      else reject(new Error(`startup-child.mjs ${mode} exited with ${code} before reporting`));
    });
  });
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** The median with the lowest and highest sample: the machine is shared, so the spread matters. */
function spread(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const lo = (sorted[0] as number).toFixed(1);
  const hi = (sorted[sorted.length - 1] as number).toFixed(1);
  return `${fmt(percentile(sorted, 50))} [${lo}–${hi}]`;
}

async function reportEntry(mode: "server" | "testing", label: string): Promise<void> {
  const reports: ChildReport[] = [];
  for (let i = 0; i < PROCESSES; i++) reports.push(await runChild(mode));
  const first = (of: (r: ChildReport) => readonly number[]) => spread(reports.map((r) => of(r)[0] as number));
  const later = (of: (r: ChildReport) => readonly number[]) => spread(reports.flatMap((r) => of(r).slice(1)));
  console.log(`${label}: ${PROCESSES} fresh processes x ${STARTS} starts (medians [lowest–highest])`);
  console.log(`  import (once per process):  ${spread(reports.map((r) => r.importMs))}`);
  console.log(
    `  first start of a process:   start ${first((r) => r.startMs)}, ` +
      `to first request ${first((r) => r.firstRequestMs)} (CPU ${first((r) => r.firstRequestCpuMs)})`,
  );
  console.log(
    `  later starts:               start ${later((r) => r.startMs)}, ` +
      `to first request ${later((r) => r.firstRequestMs)} (CPU ${later((r) => r.firstRequestCpuMs)})`,
  );
}

async function realStarts(): Promise<number[] | string> {
  let start: typeof import("../real-apiserver/start.js");
  try {
    start = await import("../real-apiserver/start.js");
    await start.locateBinaries();
  } catch (error) {
    return `skipped: real binaries not cached (${(error as Error).message.split("\n")[0]})`;
  }
  const samples: number[] = [];
  for (let i = 0; i < REAL_STARTS; i++) {
    const t0 = performance.now();
    const server = await start.startRealApiserver();
    samples.push(performance.now() - t0);
    await server.stop();
  }
  return samples;
}

async function main(): Promise<void> {
  if (ENTRIES.includes("server")) await reportEntry("server", "startServer() to GET /readyz");
  if (ENTRIES.includes("testing")) await reportEntry("testing", "startTestServer() to a first client list");
  if (REAL_STARTS === 0) return;
  const real = await realStarts();
  if (typeof real === "string") {
    console.log(`kube-apiserver + etcd: ${real}`);
    return;
  }
  console.log(`kube-apiserver + etcd, ${real.length} starts: ready median ${fmt(median(real))}`);
}

await main();
