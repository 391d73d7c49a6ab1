/**
 * Sharding benchmark: reconcile throughput of a sharded controller at 1, 2 and 3 replicas.
 *
 * The reference server runs in its own process; each replica is another process (this file with
 * --replica) running a 4-worker Controller with `sharding` over BENCH_KEYS (default 200) ConfigMaps.
 * A reconcile reads its object from the server and then waits BENCH_LATENCY_MS (default 50 ms) — a
 * stand-in for the calls to other systems that bound a real controller's throughput per replica —
 * and requeues its key at once, so every replica stays busy with the keys it owns. Once every
 * replica's Lease publishes the full view, the replicas count committed reconciles for
 * BENCH_WINDOW_MS (default 4000 ms) after a BENCH_SETTLE_MS (default 1000 ms) settling time.
 * Printed: reconciles/s per replica count and the scaling ratio to one replica (ideal: n). The
 * server and the replicas share this machine's cores, so the ratio also shows where they run out.
 * No assertions.
 *
 * Run: pnpm bench:sharding
 */
import { fork } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { Kube } from "@kubesdk/client";
import { Action, Controller, silentLogger } from "@kubesdk/controller";
import { InformerFactory } from "@kubesdk/informer";
import type { coreV1 } from "@kubesdk/models";
import { renderKubeconfig } from "@kubesdk/server";
import { startReference } from "./bench-targets.js";

const KEYS = Number(process.env.BENCH_KEYS ?? 200);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 4000);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 1000);
const REPLICAS = (process.env.BENCH_REPLICAS ?? "1,2,3").split(",").map(Number);
const TIMING = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 250 };

type ToReplica = { type: "count" } | { type: "report" };
type FromReplica = { type: "view"; size: number } | { type: "report"; reconciles: number };

// ---- replica process ----

async function replica(
  kubeconfig: string,
  namespace: string,
  group: string,
  identity: string,
): Promise<void> {
  const kube = await Kube.fromKubeconfig({ kubeconfig: { path: kubeconfig } });
  const configMaps = kube.resource("v1", "ConfigMap");
  let counting = false;
  let reconciles = 0;
  const controller: Controller<coreV1.ConfigMap> = new Controller<coreV1.ConfigMap>({
    name: "bench",
    kube,
    informers: new InformerFactory(kube),
    resource: configMaps,
    namespace,
    concurrency: 4,
    logger: silentLogger,
    sharding: {
      name: group,
      namespace,
      identity,
      ...TIMING,
      onViewPublished: (view) => process.send?.({ type: "view", size: view.length } satisfies FromReplica),
    },
    reconcile: async ({ key, name, signal }) => {
      await configMaps.get(name, { namespace, signal });
      await delay(LATENCY_MS, undefined, { signal });
      if (counting && !signal.aborted && controller.sharding?.admits(key)) reconciles++;
      return Action.requeueAfter(1);
    },
  });
  process.on("message", (m: ToReplica) => {
    if (m.type === "count") counting = true;
    else {
      counting = false;
      process.send?.({ type: "report", reconciles } satisfies FromReplica);
    }
  });
  process.once("SIGTERM", () => void controller.stop().then(() => process.exit(0)));
  await controller.start();
}

// ---- parent ----

async function measure(kubeconfig: string, kube: Kube, n: number): Promise<number> {
  const namespace = `shard-bench-${n}`;
  await kube.resource("v1", "Namespace").create({ metadata: { name: namespace } });
  const configMaps = kube.resource("v1", "ConfigMap");
  for (let i = 0; i < KEYS; i++) await configMaps.create({ metadata: { name: `cm-${i}` } }, { namespace });
  const self = fileURLToPath(import.meta.url);
  const views = new Map<number, number>();
  let allPublished: () => void = () => {};
  const published = new Promise<void>((r) => {
    allPublished = r;
  });
  const children = Array.from({ length: n }, (_, i) => {
    const child = fork(self, ["--replica", kubeconfig, namespace, `bench-${n}`, `r${i}`], {
      stdio: "inherit",
    });
    child.on("message", (m: FromReplica) => {
      if (m.type !== "view") return;
      views.set(i, m.size);
      if (views.size === n && [...views.values()].every((s) => s === n)) allPublished();
    });
    return child;
  });
  await published;
  await delay(SETTLE_MS);
  for (const c of children) c.send({ type: "count" } satisfies ToReplica);
  const t0 = performance.now();
  await delay(WINDOW_MS);
  const reports = children.map(
    (c) =>
      new Promise<number>((resolve) =>
        c.on("message", (m: FromReplica) => m.type === "report" && resolve(m.reconciles)),
      ),
  );
  for (const c of children) c.send({ type: "report" } satisfies ToReplica);
  const total = (await Promise.all(reports)).reduce((a, b) => a + b, 0);
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(
    children.map((c) => {
      const gone = new Promise((r) => c.once("exit", r));
      c.kill("SIGTERM");
      return gone;
    }),
  );
  return total / seconds;
}

async function main(): Promise<void> {
  const server = await startReference();
  try {
    const path = join(mkdtempSync(join(tmpdir(), "sharding-bench-")), "kubeconfig");
    writeFileSync(path, renderKubeconfig({ url: server.url, token: server.token, caPem: server.ca }));
    const kube = await Kube.fromKubeconfig({ kubeconfig: { path } });
    console.log(
      `sharded controller: ${KEYS} ConfigMaps, 4 workers per replica, reconcile = GET + ${LATENCY_MS} ms, window ${WINDOW_MS} ms`,
    );
    console.log("replicas | reconciles/s | scaling vs 1 replica (ideal = replicas)");
    let base: number | undefined;
    for (const n of REPLICAS) {
      const rate = await measure(path, kube, n);
      base ??= rate;
      console.log(`${String(n).padStart(8)} | ${rate.toFixed(0).padStart(12)} | ${(rate / base).toFixed(2)}`);
    }
    await kube.close();
  } finally {
    await server.stop();
  }
}

if (process.argv[2] === "--replica") {
  const [kubeconfig, namespace, group, identity] = process.argv.slice(3) as [string, string, string, string];
  await replica(kubeconfig, namespace, group, identity);
} else {
  await main();
}
