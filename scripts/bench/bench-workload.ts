/**
 * The measured workload of real-vs-reference.ts, run the same way against either server: creates
 * at concurrency 1 and 16, gets, lists of a fixed-size namespace (whole and in pages), watch-event
 * latency after a write, and fan-out to several watchers. Every phase has its own namespace, so
 * phases do not see each other's objects.
 */
import { type BenchHttp, benchHttp, withTimeout } from "./bench-http.js";
import type { BenchTarget } from "./bench-targets.js";
import { gc, percentile, runConcurrent, summarize } from "./stats.js";

export interface WorkloadSizes {
  /** Creates per concurrency level. */
  creates: number;
  gets: number;
  /** Objects in the listed namespace, and how many times each list form runs. */
  listObjects: number;
  listPageSize: number;
  listRuns: number;
  /** Sequential writes whose watch events are timed. */
  watchWrites: number;
  fanWatchers: number;
  fanEvents: number;
  /** Unmeasured requests first, so the reference server's JIT and both connection pools are warm. */
  warmup: number;
}

export interface MetricRow {
  readonly metric: string;
  readonly value: number;
  /** Which way is faster; undefined for context rows (sizes, counts). */
  readonly better?: "lower" | "higher";
}

const eventTimeoutMs = 60_000;

function configMap(namespace: string, name: string, i: number) {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace, labels: { app: "bench", shard: String(i % 10) } },
    data: { key: `value-${i}`, other: "x".repeat(100) },
  };
}

const cmPath = (namespace: string) => `/api/v1/namespaces/${namespace}/configmaps`;

async function createMany(http: BenchHttp, namespace: string, count: number, concurrency: number) {
  const t0 = performance.now();
  const latencies = await runConcurrent(count, concurrency, async (i) => {
    await http.call("POST", cmPath(namespace), configMap(namespace, `cm-${i}`, i));
  });
  return summarize(latencies, performance.now() - t0);
}

function latencyRows(label: string, latencies: number[]): MetricRow[] {
  const sorted = [...latencies].sort((a, b) => a - b);
  return [
    { metric: `${label} p50 ms`, value: percentile(sorted, 50), better: "lower" },
    { metric: `${label} p99 ms`, value: percentile(sorted, 99), better: "lower" },
  ];
}

async function timeEach(runs: number, task: (i: number) => Promise<void>): Promise<number[]> {
  return runConcurrent(runs, 1, task);
}

async function createPhase(http: BenchHttp, sizes: WorkloadSizes): Promise<MetricRow[]> {
  const rows: MetricRow[] = [];
  for (const concurrency of [1, 16]) {
    gc();
    const s = await createMany(http, `bench-c${concurrency}`, sizes.creates, concurrency);
    const label = `create c=${concurrency}`;
    rows.push(
      { metric: `${label} p50 ms`, value: s.p50, better: "lower" },
      { metric: `${label} p99 ms`, value: s.p99, better: "lower" },
      { metric: `${label} req/s`, value: s.perSec, better: "higher" },
    );
  }
  gc();
  const gets = await timeEach(sizes.gets, async (i) => {
    await http.call("GET", `${cmPath("bench-c1")}/cm-${i % sizes.creates}`);
  });
  return [...rows, ...latencyRows("get c=1", gets)];
}

async function listPhase(http: BenchHttp, sizes: WorkloadSizes): Promise<MetricRow[]> {
  const n = sizes.listObjects;
  await createMany(http, "bench-list", n, 16);
  let bytes = 0;
  const checkCount = (count: number, how: string) => {
    if (count !== n) throw new Error(`${how} returned ${count} items, expected ${n}`);
  };
  gc();
  const whole = await timeEach(sizes.listRuns, async () => {
    const text = await http.call("GET", cmPath("bench-list"));
    bytes = text.length;
    checkCount((JSON.parse(text) as { items: unknown[] }).items.length, "list");
  });
  gc();
  const paged = await timeEach(sizes.listRuns, async () => {
    let token = "";
    let items = 0;
    do {
      const query = `?limit=${sizes.listPageSize}${token ? `&continue=${encodeURIComponent(token)}` : ""}`;
      const page = JSON.parse(await http.call("GET", cmPath("bench-list") + query)) as {
        items: unknown[];
        metadata: { continue?: string };
      };
      items += page.items.length;
      token = page.metadata.continue ?? "";
    } while (token);
    checkCount(items, "paged list");
  });
  return [
    ...latencyRows(`list ${n}, no limit`, whole),
    ...latencyRows(`list ${n}, pages of ${sizes.listPageSize} (walk)`, paged),
    { metric: `list ${n} response KiB`, value: bytes / 1024 },
  ];
}

async function currentResourceVersion(http: BenchHttp, namespace: string): Promise<string> {
  const list = JSON.parse(await http.call("GET", `${cmPath(namespace)}?limit=1`)) as {
    metadata: { resourceVersion: string };
  };
  return list.metadata.resourceVersion;
}

/**
 * Sequential writes, each waited for on an open watch before the next. "From response" is the
 * event's arrival minus the write response's arrival, floored at 0: an event may beat the
 * response, which the "before response" row counts.
 */
async function watchLatencyPhase(http: BenchHttp, sizes: WorkloadSizes): Promise<MetricRow[]> {
  const ns = "bench-watch";
  const rv = await currentResourceVersion(http, ns);
  const watch = await http.watch(`${cmPath(ns)}?watch=1&resourceVersion=${rv}`);
  const fromResponse: number[] = [];
  const fromRequest: number[] = [];
  let eventFirst = 0;
  try {
    for (let i = -sizes.warmup; i < sizes.watchWrites; i++) {
      const name = i < 0 ? `warm-${-i}` : `w-${i}`;
      const index = Math.abs(i);
      const t0 = performance.now();
      await http.call("POST", cmPath(ns), configMap(ns, name, index));
      const responded = performance.now();
      const arrived = await withTimeout(watch.arrivalOf(name), eventTimeoutMs, `watch event for ${name}`);
      if (i < 0) continue;
      fromResponse.push(Math.max(0, arrived - responded));
      fromRequest.push(arrived - t0);
      if (arrived < responded) eventFirst++;
    }
  } finally {
    watch.close();
  }
  return [
    ...latencyRows("watch event after write response", fromResponse),
    ...latencyRows("watch event after write start", fromRequest),
    { metric: "watch events before write response %", value: (eventFirst / sizes.watchWrites) * 100 },
  ];
}

/** Writes at concurrency 16 while `fanWatchers` watches each count every event. */
async function fanOutPhase(http: BenchHttp, sizes: WorkloadSizes): Promise<MetricRow[]> {
  const ns = "bench-fan";
  const rv = await currentResourceVersion(http, ns);
  const watches = await Promise.all(
    Array.from({ length: sizes.fanWatchers }, () =>
      http.watch(`${cmPath(ns)}?watch=1&resourceVersion=${rv}`),
    ),
  );
  try {
    const allSeen = Promise.all(watches.map((w) => w.countReached(sizes.fanEvents)));
    gc();
    const t0 = performance.now();
    const writes = await createMany(http, ns, sizes.fanEvents, 16);
    const lastArrival = Math.max(...(await withTimeout(allSeen, eventTimeoutMs, "fan-out events")));
    const seconds = (lastArrival - t0) / 1000;
    return [
      {
        metric: `watch fan-out to ${sizes.fanWatchers}: deliveries/s`,
        value: (sizes.fanEvents * sizes.fanWatchers) / seconds,
        better: "higher",
      },
      { metric: "watch fan-out: writes/s meanwhile (c=16)", value: writes.perSec, better: "higher" },
    ];
  } finally {
    for (const w of watches) w.close();
  }
}

export async function runWorkload(target: BenchTarget, sizes: WorkloadSizes): Promise<MetricRow[]> {
  const http = benchHttp(target, 16);
  try {
    for (const ns of ["bench-warm", "bench-c1", "bench-c16", "bench-list", "bench-watch", "bench-fan"]) {
      await http.call("POST", "/api/v1/namespaces", {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name: ns },
      });
    }
    await createMany(http, "bench-warm", sizes.warmup, 16);
    await runConcurrent(sizes.warmup, 16, async (i) => {
      await http.call("GET", `${cmPath("bench-warm")}/cm-${i}`);
    });
    await http.call("GET", cmPath("bench-warm"));
    return [
      ...(await createPhase(http, sizes)),
      ...(await listPhase(http, sizes)),
      ...(await watchLatencyPhase(http, sizes)),
      ...(await fanOutPhase(http, sizes)),
    ];
  } finally {
    await http.close();
  }
}
