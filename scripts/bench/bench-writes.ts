/**
 * The write phases of server-vs-real.ts: creates, updates, server-side applies and deletes of
 * ConfigMaps at 1 and 8 clients, measured twice.
 *
 * - "cold": the first writes of a fresh server (after the workload's short warm-up). The reference
 *   server's cost per write falls about 5× over its first ~8,000 writes while V8's JIT warms up, so
 *   these rows are what a short test file on a fresh server sees.
 * - "sustained": after an unmeasured warm-up of every verb, the rate a warmed server keeps up, as
 *   issue 35's own baseline measured it (20,000 creates). The write goal is judged on these.
 *
 * kube-apiserver gets the same requests in both; it barely warms up.
 */
import type { BenchHttp } from "./bench-http.js";
import { cmPath, configMap, type MetricRow, type WorkloadSizes } from "./bench-objects.js";
import { gc, runConcurrent, summarize } from "./stats.js";

const VERBS = ["create", "update", "apply", "delete"] as const;
type WriteVerb = (typeof VERBS)[number];

/** The namespaces the write phases use; runWorkload creates them. */
export const WRITE_NAMESPACES = ["bench-w1", "bench-w8", "bench-sw", "bench-s1", "bench-s8"];

/** One request of each write verb on object `i` of the namespace. */
export function writeRequest(http: BenchHttp, verb: WriteVerb, ns: string, i: number): Promise<unknown> {
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

/**
 * Each verb over `writes` objects at 1 and then at 8 clients, in the namespaces `${prefix}1` and
 * `${prefix}8`; row names end in `, ${regime}`.
 */
async function measuredWrites(
  http: BenchHttp,
  writes: number,
  prefix: string,
  regime: "cold" | "sustained",
): Promise<MetricRow[]> {
  const rows: MetricRow[] = [];
  for (const clients of [1, 8]) {
    const ns = `${prefix}${clients}`;
    for (const verb of VERBS) {
      gc();
      const t0 = performance.now();
      const latencies = await runConcurrent(writes, clients, async (i) => {
        await writeRequest(http, verb, ns, i);
      });
      const s = summarize(latencies, performance.now() - t0);
      rows.push({ metric: `${verb} c=${clients} req/s, ${regime}`, value: s.perSec, better: "higher" });
      if (clients === 1)
        rows.push({ metric: `${verb} c=1 p50 ms, ${regime}`, value: s.p50, better: "lower" });
    }
  }
  return rows;
}

/** The fresh server's first writes: `sizes.writes` per verb and client count. */
export function coldWritePhase(http: BenchHttp, sizes: WorkloadSizes): Promise<MetricRow[]> {
  return measuredWrites(http, sizes.writes, "bench-w", "cold");
}

/**
 * `sizes.sustainedWarmup` writes of every verb at 8 clients, unmeasured, then
 * `sizes.sustainedWrites` per verb and client count, measured. Each verb's warm-up ends with
 * its objects deleted, so the measured namespaces start as the cold ones did: empty.
 */
export async function sustainedWritePhase(http: BenchHttp, sizes: WorkloadSizes): Promise<MetricRow[]> {
  if (sizes.sustainedWrites === 0) return [];
  const t0 = performance.now();
  for (const verb of VERBS) {
    await runConcurrent(sizes.sustainedWarmup, 8, async (i) => {
      await writeRequest(http, verb, "bench-sw", i);
    });
  }
  const warmedMs = performance.now() - t0;
  const rows = await measuredWrites(http, sizes.sustainedWrites, "bench-s", "sustained");
  console.error(
    `  sustained writes: warm-up ${(warmedMs / 1000).toFixed(1)} s, measured ${((performance.now() - t0 - warmedMs) / 1000).toFixed(1)} s`,
  );
  return rows;
}
