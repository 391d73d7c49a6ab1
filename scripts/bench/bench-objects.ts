/**
 * What the phases of server-vs-real.ts share: their sizes, the rows they report, and the
 * ConfigMaps they write.
 */
import type { BenchHttp } from "./bench-http.js";
import { percentile, runConcurrent, summarize } from "./stats.js";

export interface WorkloadSizes {
  /** Objects each cold write phase (create, update, apply, delete) handles per client count. */
  writes: number;
  /** Unmeasured writes of each verb at 8 clients before the sustained write rows. */
  sustainedWarmup: number;
  /** Objects each sustained write phase handles per client count; 0 skips the sustained phase. */
  sustainedWrites: number;
  gets: number;
  /** Unmeasured GETs before the timed ones. */
  getWarmup: number;
  /** Namespace sizes listed, growing (the namespace is filled up to each in turn). */
  listSizes: number[];
  /** Lists timed at the smallest size; bigger sizes run proportionally fewer (at least 7). */
  listRuns: number;
  /** Unmeasured lists per size and encoding before the timed ones (besides the checked first one). */
  listWarmup: number;
  /** Watcher counts of the fan-out phases. */
  fanWatchers: number[];
  /** Deliveries aimed at per fan-out phase: writes = deliveries / watchers, within [100, 2000]. */
  fanDeliveries: number;
  /** Deliveries aimed at per replay fan-out: events = deliveries / watchers, within [100, 5000]. */
  fanReplayDeliveries: number;
  /** Node client processes the replay fan-out's watchers are spread over (BENCH_REPLAY_READER=node, HTTP/2). */
  fanReplayClients: number;
  /** Phases to run ("write", "sustained", "get", "list", "watch"); all when undefined. */
  phases?: string[];
  /** The watch phase's parts ("live", "replay"); both when undefined. */
  fanModes?: string[];
  /** Unmeasured requests first, so the reference server's JIT and both connection pools are warm. */
  warmup: number;
  /** Offer HTTP/2 (ALPN h2) to the server. */
  http2: boolean;
}

export interface MetricRow {
  readonly metric: string;
  readonly value: number;
  /** Which way is faster; undefined for context rows (sizes, counts). */
  readonly better?: "lower" | "higher";
}

export function configMap(namespace: string, name: string, i: number) {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace, labels: { app: "bench", shard: String(i % 10) } },
    data: { key: `value-${i}`, other: "x".repeat(100) },
  };
}

export const cmPath = (namespace: string) => `/api/v1/namespaces/${namespace}/configmaps`;

export async function createMany(
  http: BenchHttp,
  namespace: string,
  count: number,
  concurrency: number,
  from = 0,
) {
  const t0 = performance.now();
  const latencies = await runConcurrent(count, concurrency, async (i) => {
    await http.call("POST", cmPath(namespace), configMap(namespace, `cm-${from + i}`, from + i));
  });
  return summarize(latencies, performance.now() - t0);
}

export function latencyRows(label: string, latencies: number[]): MetricRow[] {
  const sorted = [...latencies].sort((a, b) => a - b);
  return [
    { metric: `${label} p50 ms`, value: percentile(sorted, 50), better: "lower" },
    { metric: `${label} p99 ms`, value: percentile(sorted, 99), better: "lower" },
  ];
}
