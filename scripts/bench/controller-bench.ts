/**
 * Controller benchmark.
 *
 * 1. End to end: BENCH_OBJECTS (default 10 000) custom resources in one namespace on the
 *    reference server (its own process, fresh per run), reconciled by a @kubesdk/controller
 *    Controller in a child process at each concurrency of BENCH_CONCURRENCY (default 1,4,16).
 *    A reconcile reads the object from the informer cache and server-side-applies its status
 *    (observedGeneration). Time: from controller.start() (includes the informer's initial list)
 *    until every object's status was written. Peak RSS: the child's getrusage maxRSS.
 * 2. Work queue throughput: the same three workloads as scripts/bench/workqueue-go (client-go's
 *    workqueue) on WorkQueue, and the ratio to Go when a Go toolchain is on PATH.
 * No assertions: it prints a table.
 *
 * Run: pnpm bench:controller
 */
import { execFileSync, fork } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Kube } from "@kubesdk/client";
import {
  applyStatus,
  ExponentialBackoffRateLimiter,
  generationChanged,
  Manager,
  silentLogger,
  WorkQueue,
} from "@kubesdk/controller";
import { renderKubeconfig } from "@kubesdk/server";
import { startReference } from "./bench-targets.js";
import { NAMESPACE, seedWidgets, type Widget, widgets } from "./widget-workload.js";

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 10_000);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? "1,4,16").split(",").map(Number);
const QUEUE_OPS = Number(process.env.BENCH_QUEUE_OPS ?? 200_000);
interface RunResult {
  readonly ms: number;
  readonly peakRssMiB: number;
  readonly reconciles: number;
}

// ---- child: the controller under test ----

async function child(kubeconfig: string, concurrency: number, count: number): Promise<void> {
  const kube = await Kube.fromKubeconfig({ kubeconfig: { path: kubeconfig } });
  const resource = widgets(kube);
  const done = new Set<string>();
  let reconciles = 0;
  let finish: () => void = () => {};
  const finished = new Promise<void>((r) => {
    finish = r;
  });
  const manager = new Manager({ kube, logger: silentLogger });
  manager.controller<Widget>({
    name: "widgets",
    resource,
    namespace: NAMESPACE,
    concurrency,
    predicates: [generationChanged()],
    logger: silentLogger,
    reconcile: async ({ key, object }) => {
      reconciles++;
      if (object === undefined) return undefined;
      const generation = object.metadata?.generation ?? 0;
      await applyStatus(resource, object, { observedGeneration: generation }, { fieldManager: "bench" });
      done.add(key);
      if (done.size === count) finish();
      return undefined;
    },
  });
  const t0 = performance.now();
  await manager.start();
  await finished;
  const ms = performance.now() - t0;
  const result: RunResult = { ms, peakRssMiB: process.resourceUsage().maxRSS / 1024, reconciles };
  process.send?.(result);
  await manager.stop();
  await kube.close();
  process.exit(0);
}

// ---- parent ----

async function endToEnd(concurrency: number): Promise<RunResult> {
  const server = await startReference();
  try {
    const path = join(mkdtempSync(join(tmpdir(), "controller-bench-")), "kubeconfig");
    writeFileSync(path, renderKubeconfig({ url: server.url, token: server.token, caPem: server.ca }));
    const kube = await Kube.fromKubeconfig({ kubeconfig: { path } });
    await seedWidgets(kube, OBJECTS);
    await kube.close();
    const self = fileURLToPath(import.meta.url);
    const proc = fork(self, ["--child", path, String(concurrency), String(OBJECTS)], { stdio: "inherit" });
    return await new Promise<RunResult>((resolve, reject) => {
      proc.once("message", (m) => resolve(m as RunResult));
      proc.once("exit", (code) => reject(new Error(`controller child exited (${code}) before reporting`)));
    });
  } finally {
    await server.stop();
  }
}

async function queueBench(n: number): Promise<Record<string, number>> {
  const keys = Array.from({ length: n }, (_, i) => `ns/obj-${i}`);
  const perSecond = (ops: number, ms: number) => (ops / ms) * 1000;
  let q = new WorkQueue<string>();
  let t0 = performance.now();
  for (const k of keys) q.add(k);
  for (let i = 0; i < n; i++) q.done((await q.get()) as string);
  const distinct = perSecond(3 * n, performance.now() - t0);
  q = new WorkQueue<string>();
  t0 = performance.now();
  for (let i = 0; i < n; i++) q.add(keys[(i * 7919) % 1000] as string);
  let got = 0;
  for (let k = q.tryGet(); k !== undefined; k = q.tryGet()) {
    q.done(k);
    got++;
  }
  const duplicates = perSecond(n + 2 * got, performance.now() - t0);
  const m = Math.floor(n / 10);
  q = new WorkQueue<string>({ rateLimiter: new ExponentialBackoffRateLimiter(5, 1_000_000) });
  // The queue's timers do not hold the process open (unref'd); this does, while keys are delayed.
  const keepAlive = setInterval(() => {}, 1000);
  t0 = performance.now();
  for (const k of keys.slice(0, m)) {
    q.addRateLimited(k);
    q.forget(k);
  }
  for (let i = 0; i < m; i++) q.done((await q.get()) as string);
  const rateLimited = perSecond(4 * m, performance.now() - t0);
  clearInterval(keepAlive);
  q.shutDown();
  return { distinct, duplicates, rateLimited };
}

function goQueueBench(n: number): Record<string, number> | undefined {
  try {
    const dir = fileURLToPath(new URL("./workqueue-go/", import.meta.url));
    const out = execFileSync("go", ["run", ".", String(n)], { cwd: dir, encoding: "utf8", timeout: 600_000 });
    return JSON.parse(out.trim().split("\n").at(-1) as string);
  } catch (err) {
    console.log(`(Go work queue benchmark skipped: ${String(err).split("\n")[0]})`);
    return undefined;
  }
}

async function main(): Promise<void> {
  console.log(`controller end to end: ${OBJECTS} custom resources, status written by server-side apply`);
  console.log("concurrency | time (s) | objects/s | reconciles | peak RSS (MiB)");
  for (const c of CONCURRENCY) {
    const r = await endToEnd(c);
    console.log(
      `${String(c).padStart(11)} | ${(r.ms / 1000).toFixed(2).padStart(8)} | ${((OBJECTS / r.ms) * 1000).toFixed(0).padStart(9)} | ${String(r.reconciles).padStart(10)} | ${r.peakRssMiB.toFixed(0).padStart(14)}`,
    );
  }
  const ts = await queueBench(QUEUE_OPS);
  const go = goQueueBench(QUEUE_OPS);
  console.log(`\nwork queue throughput (${QUEUE_OPS} keys; ops/s)`);
  console.log("workload    | kubesdk    | client-go  | kubesdk/Go");
  for (const [name, value] of Object.entries(ts)) {
    const g = go?.[name];
    console.log(
      `${name.padEnd(11)} | ${value.toExponential(2).padStart(10)} | ${(g?.toExponential(2) ?? "-").padStart(10)} | ${g ? (value / g).toFixed(2) : "-"}`,
    );
  }
}

if (process.argv[2] === "--child") {
  await child(process.argv[3] as string, Number(process.argv[4]), Number(process.argv[5]));
} else {
  await main();
}
