/**
 * A fresh reference server's first replay to one watcher, alone: the `watch replay 1` row of
 * server-vs-real.ts (BENCH_PHASES=watch) on one fresh server per round, with the server's CPU over
 * the replay ("go" to the last event) split by thread from /proc: the main thread, V8's worker
 * threads (compiles, concurrent GC) and the rest. Each round runs the row's path: the workload's
 * warm-up, the live fan-out to BENCH_FAN_WATCHERS watchers, then 5,000 ConfigMaps written and one
 * watch replaying them with app=bench, read by the row's reader (watch-replay.ts: BENCH_REPLAY_READER).
 *
 * A/B: BENCH_SERVER_DISTS="A=<dir>,B=<dir>" runs the rounds alternating between server builds
 * (reference-server-child.mjs's BENCH_SERVER_DIST; an empty dir is the package's own dist/), so the
 * builds see the same machine. Needs BENCH_SERVER=built and `pnpm build`; Linux (/proc).
 *
 * Run: BENCH_SERVER=built pnpm bench:watch:replay-first
 * Env: BENCH_ROUNDS (9 per build), BENCH_FAN_WATCHERS ("1,100,1000"; "" for no live fan-out),
 *      BENCH_FAN_DELIVERIES (100000), BENCH_WARMUP (200), BENCH_SERVER_FLAGS (node options of the
 *      server, e.g. "--trace-opt --trace-deopt"), BENCH_CPU_PROF (a directory for its profiles).
 */
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { benchHttp } from "./bench-http.js";
import { fanOutOnce } from "./bench-list-watch.js";
import { startReference } from "./bench-targets.js";
import { warmUp } from "./bench-workload.js";
import { percentile } from "./stats.js";
import { replayWritten, writeEvents } from "./watch-replay.js";

const EVENTS = 5000;

/** CPU time so far of each thread of `pid`, ms, by kind. */
interface ThreadCpu {
  readonly main: number;
  readonly v8: number;
  readonly other: number;
}

/**
 * Node's platform threads (a delayed-task scheduler, then V8's workers: `--v8-pool-size`, 4 by
 * default) are the first started after the main thread; threads are all named "node", so they
 * are told apart by their order. The rest is libuv's pool and helpers.
 */
const PLATFORM_THREADS = 5;

/** On-CPU time from /proc/<pid>/task/<tid>/schedstat (ns, not clock ticks). */
function threadCpu(pid: number): ThreadCpu {
  const cpu = { main: 0, v8: 0, other: 0 };
  const tids = readdirSync(`/proc/${pid}/task`)
    .map(Number)
    .sort((a, b) => a - b);
  tids.forEach((tid, i) => {
    let ms: number;
    try {
      ms = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
    } catch {
      return; // a thread that ended meanwhile
    }
    if (tid === pid) cpu.main += ms;
    else if (i <= PLATFORM_THREADS) cpu.v8 += ms;
    else cpu.other += ms;
  });
  return cpu;
}

interface Round {
  readonly build: string;
  readonly wallMs: number;
  readonly mainMs: number;
  readonly v8Ms: number;
  readonly otherMs: number;
}

function listEnv(name: string, fallback: string): string[] {
  return (process.env[name] ?? fallback)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

async function oneRound(build: string, dist: string): Promise<Round> {
  if (dist === "") delete process.env.BENCH_SERVER_DIST;
  else process.env.BENCH_SERVER_DIST = dist;
  const target = await startReference();
  const http = benchHttp(target, { connections: 32, http2: false });
  try {
    await warmUp(http, Number(process.env.BENCH_WARMUP ?? 200));
    const deliveries = Number(process.env.BENCH_FAN_DELIVERIES ?? 100_000);
    for (const w of listEnv("BENCH_FAN_WATCHERS", "1,100,1000"))
      await fanOutOnce(http, Number(w), deliveries);
    const ns = "bench-replay-1";
    const [from, last] = await writeEvents(http, ns, EVENTS);
    const pid = target.pid as number;
    const marks: ThreadCpu[] = [];
    const window: bigint[] = [];
    const r = await replayWritten(target, ns, from, last, {
      watchers: 1,
      events: EVENTS,
      clients: 1,
      http2: false,
      serverCpu: async () => {
        marks.push(threadCpu(pid));
        window.push(process.hrtime.bigint());
        return 0;
      },
    });
    const [a, b] = marks as [ThreadCpu, ThreadCpu];
    noteWindow(pid, window);
    return {
      build,
      wallMs: r.wallMs,
      mainMs: b.main - a.main,
      v8Ms: b.v8 - a.v8,
      otherMs: b.other - a.other,
    };
  } finally {
    await http.close();
    await target.stop();
  }
}

/**
 * With BENCH_CPU_PROF: the replay's span on the monotonic clock (µs, as V8's profiles time their
 * samples), so a profile's samples can be cut to it: <dir>/replay-windows.jsonl, one line a round.
 */
function noteWindow(pid: number, window: readonly bigint[]): void {
  const dir = process.env.BENCH_CPU_PROF;
  if (dir === undefined) return;
  const [t0, t1] = window.map((ns) => Number(ns / 1000n));
  appendFileSync(join(dir, "replay-windows.jsonl"), `${JSON.stringify({ pid, t0, t1 })}\n`);
}

const fmt = (v: number) => v.toFixed(1);

function summary(values: number[]): string {
  const sorted = [...values].sort((x, y) => x - y);
  return `${fmt(percentile(sorted, 50))} [${fmt(sorted[0] as number)}–${fmt(sorted[sorted.length - 1] as number)}]`;
}

async function main(): Promise<void> {
  const builds = listEnv("BENCH_SERVER_DISTS", "=").map((entry) => {
    const at = entry.indexOf("=");
    return { name: entry.slice(0, at) || "this", dist: entry.slice(at + 1) };
  });
  const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
  const results: Round[] = [];
  console.error(`load ${loadavg()[0]?.toFixed(1)}`);
  for (let i = 0; i < rounds; i++) {
    for (const b of builds) {
      const r = await oneRound(b.name, b.dist);
      results.push(r);
      console.error(
        `${r.build} wall ${fmt(r.wallMs)} main ${fmt(r.mainMs)} v8 ${fmt(r.v8Ms)} other ${fmt(r.otherMs)} ms  (load ${loadavg()[0]?.toFixed(1)})`,
      );
    }
  }
  console.log("build  wall ms  main-thread CPU ms  V8 threads CPU ms  other threads ms  process CPU ms");
  for (const b of builds) {
    const mine = results.filter((r) => r.build === b.name);
    console.log(
      [
        b.name,
        summary(mine.map((r) => r.wallMs)),
        summary(mine.map((r) => r.mainMs)),
        summary(mine.map((r) => r.v8Ms)),
        summary(mine.map((r) => r.otherMs)),
        summary(mine.map((r) => r.mainMs + r.v8Ms + r.otherMs)),
      ].join("  "),
    );
  }
}

await main();
