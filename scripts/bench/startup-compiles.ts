/**
 * What V8 compiles during a process's first start (startup-floor-child.mjs's exchange, reference
 * and bare modes): fresh processes run with `--log-function-events`, and the functions parsed and
 * compiled between the child's measureBegins() and measureEnds() are summed by package, by file
 * and by function, medians over the processes. Most of a first start above its floor is code that
 * runs for the first time (docs/performance-history.md, sessions 21 and 22); this says whose.
 * The logging slows the process about twofold, so the figures are shares, not the start's cost.
 * Run: `BENCH_SERVER=built pnpm bench:startup:compiles` (BENCH_PROCESSES=N per mode, default 5;
 * BENCH_TOP=N lines per table, default 25).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serverExecArgv } from "./built-server.js";
import { percentile } from "./stats.js";

type Mode = "reference" | "bare";
/** ms of parsing and compiling per key, in one process's measured window. */
type Totals = Map<string, number>;
/** A process's compile time by function, and the file of each function. */
interface Compiles {
  readonly byFunction: Totals;
  readonly fileOf: Map<string, string>;
}

const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 5);
const TOP = Number(process.env.BENCH_TOP ?? 25);
const CHILD = fileURLToPath(new URL("./startup-floor-child.mjs", import.meta.url));
/** Events that are compile work (V8's names); first executions and preparse resolutions are not. */
const COMPILE_EVENTS = new Set([
  "parse",
  "parse-function",
  "parse-eval",
  "interpreter",
  "interpreter-eval",
  "baseline",
  "maglev",
  "turbofan",
]);

function runChild(mode: Mode, logfile: string): Promise<void> {
  const args = [...serverExecArgv(process.execArgv), "--log-function-events", `--logfile=${logfile}`];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...args, "--no-logfile-per-isolate", CHILD, mode], (error) =>
      error ? reject(error) : resolve(),
    );
  });
}

/** `packages/server/dist/x.js` → `server/dist/x.js`; a dependency by its package path; node: as is. */
function shortName(url: string): string {
  return url
    .replace(/^file:\/\//, "")
    .replace(/^.*\/(packages\/|node_modules\/\.pnpm\/[^/]+\/node_modules\/)/, "");
}

const packageOf = (file: string) => (file.startsWith("node:") ? "node" : (file.split("/")[0] ?? "?"));

function add(totals: Totals, key: string, ms: number): void {
  totals.set(key, (totals.get(key) ?? 0) + ms);
}

/** V8's log lines: `function,<event>,<script>,<start>,<end>,<ms>,<timestamp µs>,<name>`. */
function compilesOf(log: string): Compiles {
  const lines = log.split("\n").map((l) => l.split(","));
  const scripts = new Map<string, string>();
  let begins = Number.POSITIVE_INFINITY;
  let ends = Number.POSITIVE_INFINITY;
  for (const f of lines) {
    if (f[0] === "script-details") scripts.set(f[1] as string, shortName(f[2] ?? ""));
    if (f[0] !== "function" || f[1] !== "first-execution") continue;
    if (f[7] === "measureBegins") begins = Number(f[6]);
    if (f[7] === "measureEnds") ends = Number(f[6]);
  }
  const compiles: Compiles = { byFunction: new Map(), fileOf: new Map() };
  for (const f of lines) {
    const at = Number(f[6]);
    if (f[0] !== "function" || !COMPILE_EVENTS.has(f[1] as string) || !(at > begins && at < ends)) continue;
    const file = scripts.get(f[2] as string) ?? "?";
    const key = `${f.slice(7).join(",") || "(anonymous)"} ${file}:${f[3]}`;
    add(compiles.byFunction, key, Number(f[5]));
    compiles.fileOf.set(key, file);
  }
  return compiles;
}

/**
 * Each function's median over the processes, then files and packages as sums of those: on a
 * loaded machine a compile the scheduler interrupted logs milliseconds, in a different function
 * in each process, and a median per function leaves those out where a median of sums would not.
 */
function medians(runs: readonly Compiles[]): { byFunction: Totals; byFile: Totals; byPackage: Totals } {
  const byFunction: Totals = new Map();
  const byFile: Totals = new Map();
  const byPackage: Totals = new Map();
  const functions: Totals = new Map();
  const fileOf = new Map(runs.flatMap((r) => [...r.fileOf]));
  for (const [key, file] of fileOf) {
    const ms = percentile(
      runs.map((r) => r.byFunction.get(key) ?? 0).sort((a, b) => a - b),
      50,
    );
    byFunction.set(key, ms);
    add(byFile, file, ms);
    if (ms > 0) add(functions, packageOf(file), 1);
    add(byPackage, packageOf(file), ms);
  }
  const counted: Totals = new Map(
    [...byPackage].map(([p, ms]) => [`${p} (${functions.get(p) ?? 0} functions)`, ms]),
  );
  return { byFunction, byFile, byPackage: counted };
}

function print(title: string, totals: Totals, top: number): void {
  const rows = [...totals].sort((a, b) => b[1] - a[1]).slice(0, top);
  const sum = [...totals.values()].reduce((a, b) => a + b, 0);
  console.log(`  ${title} (medians, ms; all: ${sum.toFixed(1)})`);
  for (const [key, ms] of rows) console.log(`    ${ms.toFixed(3).padStart(7)}  ${key}`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "startup-compiles-"));
  try {
    const runs: Record<Mode, Compiles[]> = { reference: [], bare: [] };
    for (let i = 0; i < PROCESSES; i++) {
      for (const mode of ["reference", "bare"] as const) {
        const logfile = join(dir, `${mode}-${i}.log`);
        await runChild(mode, logfile);
        runs[mode].push(compilesOf(readFileSync(logfile, "utf8")));
      }
    }
    for (const mode of ["reference", "bare"] as const) {
      console.log(
        `${mode}: ${PROCESSES} fresh processes, V8 parse and compile time in the measured exchange`,
      );
      const { byPackage, byFile, byFunction } = medians(runs[mode]);
      print("by package", byPackage, TOP);
      print("by file", byFile, TOP);
      print("by function", byFunction, TOP);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
