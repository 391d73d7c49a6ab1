/**
 * The write phases of server-vs-real.ts: creates, updates, server-side applies and deletes of
 * ConfigMaps at 1 and 8 clients, measured twice, through a WriteClient (write-clients.ts: the Go
 * client on HTTP/1.1 unless BENCH_WRITE_CLIENT=node).
 *
 * - "cold": the first writes of a fresh server (after the workload's short warm-up). The reference
 *   server's cost per write falls about 5× over its first ~8,000 writes while V8's JIT warms up, so
 *   these rows are what a short test file on a fresh server sees.
 * - "sustained": after an unmeasured warm-up of every verb, the rate a warmed server keeps up, as
 *   issue 35's own baseline measured it (20,000 creates). The write goal is judged on these.
 *
 * kube-apiserver gets the same requests in both; it barely warms up.
 */
import type { MetricRow, WorkloadSizes } from "./bench-objects.js";
import { gc, summarize } from "./stats.js";
import { WRITE_VERBS, type WriteClient } from "./write-clients.js";

/** The namespaces the write phases use; runWorkload creates them. */
export const WRITE_NAMESPACES = ["bench-w1", "bench-w8", "bench-sw", "bench-s1", "bench-s8"];

/**
 * Each verb over `writes` objects at 1 and then at 8 clients, in the namespaces `${prefix}1` and
 * `${prefix}8`; row names end in `, ${regime}`. The Go client also reports its own CPU per request.
 */
async function measuredWrites(
  client: WriteClient,
  writes: number,
  prefix: string,
  regime: "cold" | "sustained",
): Promise<MetricRow[]> {
  const rows: MetricRow[] = [];
  for (const clients of [1, 8]) {
    const ns = `${prefix}${clients}`;
    for (const verb of WRITE_VERBS) {
      gc();
      const batch = await client.run(verb, ns, writes, clients);
      const s = summarize(batch.latenciesMs, batch.wallMs);
      rows.push({ metric: `${verb} c=${clients} req/s, ${regime}`, value: s.perSec, better: "higher" });
      if (clients === 1)
        rows.push({ metric: `${verb} c=1 p50 ms, ${regime}`, value: s.p50, better: "lower" });
      if (batch.clientCpuMicros !== undefined)
        rows.push({
          metric: `${verb} c=${clients} client CPU µs/req, ${regime}`,
          value: batch.clientCpuMicros / writes,
        });
    }
  }
  return rows;
}

/** The fresh server's first writes: `sizes.writes` per verb and client count. */
export function coldWritePhase(client: WriteClient, sizes: WorkloadSizes): Promise<MetricRow[]> {
  return measuredWrites(client, sizes.writes, "bench-w", "cold");
}

/**
 * `sizes.sustainedWarmup` writes of every verb at 8 clients, unmeasured, then
 * `sizes.sustainedWrites` per verb and client count, measured. Each verb's warm-up ends with
 * its objects deleted, so the measured namespaces start as the cold ones did: empty.
 */
export async function sustainedWritePhase(client: WriteClient, sizes: WorkloadSizes): Promise<MetricRow[]> {
  if (sizes.sustainedWrites === 0) return [];
  const t0 = performance.now();
  for (const verb of WRITE_VERBS) await client.run(verb, "bench-sw", sizes.sustainedWarmup, 8);
  const warmedMs = performance.now() - t0;
  const rows = await measuredWrites(client, sizes.sustainedWrites, "bench-s", "sustained");
  console.error(
    `  sustained writes (${client.kind} client): warm-up ${(warmedMs / 1000).toFixed(1)} s, measured ${((performance.now() - t0 - warmedMs) / 1000).toFixed(1)} s`,
  );
  return rows;
}
