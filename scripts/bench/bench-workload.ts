/**
 * The measured workload of server-vs-real.ts, run the same way against either server: creates,
 * updates, server-side applies and deletes at 1 and 8 clients on the fresh server and again after
 * a warm-up (bench-writes.ts), GET latency, then (in bench-list-watch.ts) lists of growing size in
 * JSON and protobuf and watch fan-out. Every phase has its own namespace, so phases do not see
 * each other's objects.
 */
import { type BenchHttp, benchHttp } from "./bench-http.js";
import { listPhase, watchFanOutPhase } from "./bench-list-watch.js";
import { cmPath, createMany, latencyRows, type MetricRow, type WorkloadSizes } from "./bench-objects.js";
import type { BenchTarget } from "./bench-targets.js";
import { coldWritePhase, sustainedWritePhase, WRITE_NAMESPACES } from "./bench-writes.js";
import { gc, runConcurrent } from "./stats.js";
import { type WriteClient, writeClient, writeRequest } from "./write-clients.js";

export type { MetricRow, WorkloadSizes } from "./bench-objects.js";

async function getPhase(http: BenchHttp, sizes: WorkloadSizes): Promise<MetricRow[]> {
  const ns = "bench-get";
  await createMany(http, ns, Math.min(sizes.gets, 1000), 8);
  await runConcurrent(sizes.getWarmup, 1, async (i) => {
    await http.call("GET", `${cmPath(ns)}/cm-${i % Math.min(sizes.gets, 1000)}`);
  });
  gc();
  const gets = await runConcurrent(sizes.gets, 1, async (i) => {
    await http.call("GET", `${cmPath(ns)}/cm-${i % Math.min(sizes.gets, 1000)}`);
  });
  return latencyRows("get c=1", gets);
}

async function createNamespaces(http: BenchHttp, names: string[]): Promise<void> {
  for (const name of names) {
    await http.call("POST", "/api/v1/namespaces", {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name },
    });
  }
}

/** The phases' namespaces, then `writes` unmeasured requests of every verb the phases use. */
export async function warmUp(http: BenchHttp, writes: number): Promise<void> {
  await createNamespaces(http, ["bench-warm", ...WRITE_NAMESPACES, "bench-get", "bench-list"]);
  await runConcurrent(writes, 8, async (i) => {
    for (const verb of ["create", "update", "apply"] as const) {
      await writeRequest(http, verb, "bench-warm", i);
    }
    await http.call("GET", `${cmPath("bench-warm")}/cm-${i}`);
  });
  await http.call("GET", cmPath("bench-warm"));
}

/**
 * `afterPhase` (memory-workload.ts) is called when the warm-up, each phase and each watcher count of
 * the watch phase is done, before the next starts.
 */
export async function runWorkload(
  target: BenchTarget,
  sizes: WorkloadSizes,
  afterPhase: (phase: string) => Promise<void> = async () => {},
): Promise<MetricRow[]> {
  const http = benchHttp(target, { connections: 32, http2: sizes.http2 });
  let writes: WriteClient | undefined;
  try {
    await warmUp(http, sizes.warmup);
    await afterPhase("warm-up");
    const writer = async () => {
      writes ??= await writeClient(target, http, sizes.http2);
      return writes;
    };
    const phases: [string, () => Promise<MetricRow[]>][] = [
      ["write", async () => coldWritePhase(await writer(), sizes)],
      ["sustained", async () => sustainedWritePhase(await writer(), sizes)],
      ["get", () => getPhase(http, sizes)],
      ["list", () => listPhase(http, sizes)],
      ["watch", () => watchFanOutPhase(target, http, sizes, afterPhase)],
    ];
    const rows: MetricRow[] = [];
    for (const [phase, run] of phases) {
      if (sizes.phases !== undefined && !sizes.phases.includes(phase)) continue;
      const t0 = performance.now();
      rows.push(...(await run()));
      console.error(`  ${phase} phase ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      await afterPhase(phase);
    }
    return rows;
  } finally {
    await writes?.close();
    await http.close();
  }
}
