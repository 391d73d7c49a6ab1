/**
 * What the reference server holds during server-vs-real.ts's list and fan-out phases (issue 35's
 * peak RSS): the server in its own process, the same phases in order (a namespace filled to 500,
 * 5,000 and 50,000 ConfigMaps, each size listed in JSON and protobuf, then watch fan-out), with
 * the server's process.memoryUsage() after each step and its peak RSS at the end.
 *
 * Run: pnpm bench:server:memory
 * Env: BENCH_LIST_SIZES ("500,5000,50000"), BENCH_LIST_RUNS (3 per size and encoding),
 *      BENCH_FAN_WATCHERS ("100,1000"), BENCH_FAN_WRITES (200), BENCH_HEAP (1: a heap snapshot of
 *      the server after the last list, into BENCH_HEAP_DIR).
 */
import { benchHttp, type WatchStream } from "./bench-http.js";
import { cmPath, createMany } from "./bench-objects.js";
import { startReference } from "./bench-targets.js";
import { gc, runConcurrent } from "./stats.js";

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const sizes = (process.env.BENCH_LIST_SIZES ?? "500,5000,50000").split(",").map(Number);
const listRuns = num("BENCH_LIST_RUNS", 3);
const fanWatchers = (process.env.BENCH_FAN_WATCHERS ?? "100,1000").split(",").map(Number);
const fanWrites = num("BENCH_FAN_WRITES", 200);
const MiB = 2 ** 20;

const target = await startReference();
const http = benchHttp(target, { connections: 32 });
const memory = target.memory as () => Promise<NodeJS.MemoryUsage>;

async function report(step: string): Promise<void> {
  const m = await memory();
  const f = (bytes: number) => (bytes / MiB).toFixed(0).padStart(6);
  console.log(
    `${step.padEnd(28)} rss ${f(m.rss)}  heapUsed ${f(m.heapUsed)}  heapTotal ${f(m.heapTotal)}  external ${f(m.external)}  arrayBuffers ${f(m.arrayBuffers)}`,
  );
}

async function fanOut(watchers: number): Promise<void> {
  const ns = `fan-${watchers}`;
  await http.call("POST", "/api/v1/namespaces", {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: ns },
  });
  const watches: WatchStream[] = [];
  await runConcurrent(watchers, 50, async () => {
    watches.push(await http.watch(`${cmPath(ns)}?watch=1`, true));
  });
  const seen = Promise.all(watches.map((w) => w.countReached(fanWrites)));
  await createMany(http, ns, fanWrites, 32);
  await seen;
  await report(`fan-out ${watchers}`);
  for (const w of watches) w.close();
}

try {
  await report("started");
  const ns = "bench-list";
  await http.call("POST", "/api/v1/namespaces", {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: ns },
  });
  let filled = 0;
  for (const size of sizes) {
    await createMany(http, ns, size - filled, 32, filled);
    filled = size;
    await report(`filled ${size}`);
    for (const accept of ["application/json", "application/vnd.kubernetes.protobuf"]) {
      for (let i = 0; i < listRuns; i++) await http.send("GET", cmPath(ns), { accept });
      await report(`listed ${size} ${accept.endsWith("json") ? "json" : "protobuf"}`);
    }
  }
  if (process.env.BENCH_HEAP === "1")
    console.log(`heap snapshot: ${await (target.heapSnapshot as () => Promise<string>)()}`);
  for (const n of fanWatchers) await fanOut(n);
  gc();
  console.log(`peak RSS ${((await target.peakRssBytes()) / MiB).toFixed(0)} MiB`);
} finally {
  await http.close();
  await target.stop();
}
