/**
 * The measured workload of server-vs-real.ts, run the same way against either server: creates,
 * updates, server-side applies and deletes at 1 and 8 clients, GET latency, then (in
 * bench-list-watch.ts) lists of growing size in JSON and protobuf and watch fan-out. Every phase
 * has its own namespace, so phases do not see each other's objects.
 */
import { type BenchHttp, benchHttp } from "./bench-http.js";
import { listPhase, watchFanOutPhase } from "./bench-list-watch.js";
import {
  cmPath,
  configMap,
  createMany,
  latencyRows,
  type MetricRow,
  type WorkloadSizes,
} from "./bench-objects.js";
import type { BenchTarget } from "./bench-targets.js";
import { gc, runConcurrent, summarize } from "./stats.js";

export type { MetricRow, WorkloadSizes } from "./bench-objects.js";

type WriteVerb = "create" | "update" | "apply" | "delete";

/** One request of each write verb on object `i` of the namespace. */
function writeRequest(http: BenchHttp, verb: WriteVerb, ns: string, i: number): Promise<unknown> {
  const name = `cm-${i}`;
  const object = configMap(ns, name, i);
  switch (verb) {
    case "create":
      return http.call("POST", cmPath(ns), object);
    case "update":
      // No resourceVersion: an unconditional update, as ConfigMaps allow.
      return http.call("PUT", `${cmPath(ns)}/${name}`, { ...object, data: { key: `updated-${i}` } });
    case "apply":
      return http.send("PATCH", `${cmPath(ns)}/${name}?fieldManager=bench&force=true`, {
        body: { ...object, data: { applied: `applied-${i}` } },
        contentType: "application/apply-patch+yaml",
      });
    case "delete":
      return http.call("DELETE", `${cmPath(ns)}/${name}`);
  }
}

/** Create, update, apply and delete `writes` objects each, at 1 and at 8 clients. */
async function writePhase(http: BenchHttp, sizes: WorkloadSizes): Promise<MetricRow[]> {
  const rows: MetricRow[] = [];
  for (const clients of [1, 8]) {
    const ns = `bench-w${clients}`;
    for (const verb of ["create", "update", "apply", "delete"] as const) {
      gc();
      const t0 = performance.now();
      const latencies = await runConcurrent(sizes.writes, clients, async (i) => {
        await writeRequest(http, verb, ns, i);
      });
      const s = summarize(latencies, performance.now() - t0);
      rows.push({ metric: `${verb} c=${clients} req/s`, value: s.perSec, better: "higher" });
      if (clients === 1) rows.push({ metric: `${verb} c=1 p50 ms`, value: s.p50, better: "lower" });
    }
  }
  return rows;
}

async function getPhase(http: BenchHttp, sizes: WorkloadSizes): Promise<MetricRow[]> {
  const ns = "bench-get";
  await createMany(http, ns, Math.min(sizes.gets, 1000), 8);
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
  try {
    await createNamespaces(http, ["bench-warm", "bench-w1", "bench-w8", "bench-get", "bench-list"]);
    // Warm-up: every verb the phases use, unmeasured.
    await runConcurrent(sizes.warmup, 8, async (i) => {
      for (const verb of ["create", "update", "apply"] as const) {
        await writeRequest(http, verb, "bench-warm", i);
      }
      await http.call("GET", `${cmPath("bench-warm")}/cm-${i}`);
    });
    await http.call("GET", cmPath("bench-warm"));
    await afterPhase("warm-up");
    const phases: [string, () => Promise<MetricRow[]>][] = [
      ["write", () => writePhase(http, sizes)],
      ["get", () => getPhase(http, sizes)],
      ["list", () => listPhase(http, sizes)],
      ["watch", () => watchFanOutPhase(target, http, sizes, afterPhase)],
    ];
    const rows: MetricRow[] = [];
    for (const [phase, run] of phases) {
      if (sizes.phases !== undefined && !sizes.phases.includes(phase)) continue;
      rows.push(...(await run()));
      await afterPhase(phase);
    }
    return rows;
  } finally {
    await http.close();
  }
}
