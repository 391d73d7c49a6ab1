/**
 * Which phase of server-vs-real.ts's workload sets the reference server's peak RSS (issue 35): the
 * server in its own process runs the same workload (warm-up, cold and sustained writes, GETs,
 * lists, live fan-out, replayed fan-out), phase by phase; after each phase it prints the server's
 * process.memoryUsage() and its peak RSS so far, and the highest RSS a sampler saw during the phase
 * (one sample every BENCH_SAMPLE_MS, 200). Nothing is timed.
 *
 * Run: BENCH_SERVER=built pnpm bench:server:memory:workload
 * Env: as server-vs-real.ts for the workload sizes (BENCH_WRITES, BENCH_LIST_SIZES, BENCH_FAN_WATCHERS,
 *      BENCH_FAN_DELIVERIES, BENCH_REPLAY_DELIVERIES, ...); BENCH_PHASES picks phases.
 */
import { startReference } from "./bench-targets.js";
import { runWorkload, type WorkloadSizes } from "./bench-workload.js";

const MiB = 2 ** 20;
const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const list = (name: string, fallback: string) => env(name, fallback).split(",").filter(Boolean);
const base: WorkloadSizes = {
  writes: Number(env("BENCH_WRITES", "1000")),
  sustainedWarmup: Number(env("BENCH_SUSTAINED_WARMUP", "5000")),
  sustainedWrites: Number(env("BENCH_SUSTAINED_WRITES", "2000")),
  gets: Number(env("BENCH_GETS", "2000")),
  getWarmup: Number(env("BENCH_GET_WARMUP", "0")),
  listSizes: list("BENCH_LIST_SIZES", "500,5000,50000").map(Number),
  listRuns: Number(env("BENCH_LIST_RUNS", "30")),
  listWarmup: Number(env("BENCH_LIST_WARMUP", "20")),
  fanWatchers: list("BENCH_FAN_WATCHERS", "1,100,1000").map(Number),
  fanDeliveries: Number(env("BENCH_FAN_DELIVERIES", "100000")),
  fanReplayDeliveries: Number(env("BENCH_REPLAY_DELIVERIES", "200000")),
  fanReplayClients: Number(env("BENCH_REPLAY_CLIENTS", "4")),
  warmup: Number(env("BENCH_WARMUP", "200")),
  phases: list("BENCH_PHASES", "write,sustained,get,list,watch"),
  http2: false,
};
const sampleMs = Number(env("BENCH_SAMPLE_MS", "200"));

const target = await startReference();
// The child answers each question with a message that names no question: one at a time.
let queue: Promise<unknown> = Promise.resolve();
function serial<T>(ask: () => Promise<T>): Promise<T> {
  const answer = queue.then(ask);
  queue = answer.catch(() => {});
  return answer;
}
const memory = () => serial(target.memory as () => Promise<NodeJS.MemoryUsage>);
const peakRss = () => serial(() => target.peakRssBytes());
const f = (bytes: number) => (bytes / MiB).toFixed(0).padStart(5);

async function report(step: string, sampledMax: number): Promise<void> {
  const m = await memory();
  const peak = await peakRss();
  console.log(
    `${step.padEnd(10)} rss ${f(m.rss)} sampled max ${f(sampledMax)} peak ${f(peak)}  heapUsed ${f(m.heapUsed)}  heapTotal ${f(m.heapTotal)}  arrayBuffers ${f(m.arrayBuffers)}`,
  );
}

let max = 0;
let done = false;
// The highest RSS between two phase ends, sampled over IPC (the server answers between requests).
const sampler = (async () => {
  while (!done) {
    max = Math.max(max, (await memory()).rss);
    await new Promise((resolve) => setTimeout(resolve, sampleMs));
  }
})();

try {
  await report("started", 0);
  await runWorkload(target, base, async (phase) => {
    await report(phase, max);
    max = 0;
  });
} finally {
  done = true;
  await sampler;
  await target.stop();
}
