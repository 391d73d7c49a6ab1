/**
 * The read-side phases of server-vs-real.ts: whole-namespace lists at growing sizes in JSON and
 * protobuf, and watch fan-out to many watchers two ways: "live", while writes run at full speed
 * (bound by the write rate as much as by delivery), and "replay", events written first and then
 * replayed to every watcher from the server's history (watch-replay.ts: delivery alone).
 */
import { type BenchHttp, type WatchStream, withTimeout } from "./bench-http.js";
import { cmPath, createMany, latencyRows, type MetricRow, type WorkloadSizes } from "./bench-objects.js";
import type { BenchTarget } from "./bench-targets.js";
import { gc, runConcurrent } from "./stats.js";
import { replayRows } from "./watch-replay.js";

const PROTOBUF = "application/vnd.kubernetes.protobuf";
const eventTimeoutMs = 120_000;

/** Fails the run when a list does not hold what was created (a wrong answer is not a fast one). */
function checkList(bytes: Buffer, contentType: string, encoding: "json" | "protobuf", size: number): void {
  if (encoding === "protobuf") {
    if (!contentType.startsWith(PROTOBUF)) throw new Error(`protobuf list answered ${contentType}`);
    return;
  }
  // Only the benchmark's own objects: the reference server's root-CA controller also publishes
  // kube-root-ca.crt into every namespace (kube-controller-manager does on a cluster).
  const items = (
    JSON.parse(bytes.toString("utf8")) as { items: { metadata: { labels?: Record<string, string> } }[] }
  ).items;
  const count = items.filter((item) => item.metadata.labels?.app === "bench").length;
  if (count !== size) throw new Error(`list returned ${count} items, expected ${size}`);
}

/** Fills one namespace up to each size in turn and times whole lists of it in both encodings. */
export async function listPhase(http: BenchHttp, sizes: WorkloadSizes): Promise<MetricRow[]> {
  const ns = "bench-list";
  const rows: MetricRow[] = [];
  let filled = 0;
  const smallest = Math.min(...sizes.listSizes);
  for (const size of [...sizes.listSizes].sort((a, b) => a - b)) {
    await createMany(http, ns, size - filled, 32, filled);
    filled = size;
    // At least 7 timed lists per size: with 3, a round's median was one list and rounds of the
    // 50,000-item row swung 2–3× on a quiet machine.
    const runs = Math.max(7, Math.round((sizes.listRuns * smallest) / size));
    for (const encoding of ["json", "protobuf"] as const) {
      const accept = encoding === "json" ? "application/json" : PROTOBUF;
      // One unmeasured list, checked, proves the answer; then `listWarmup` more, unmeasured: the
      // first lists of a size ran slower on both servers (on the reference, cold JIT code).
      const first = await http.send("GET", cmPath(ns), { accept });
      checkList(first.bytes, first.contentType, encoding, size);
      await runConcurrent(sizes.listWarmup, 1, async () => {
        await http.send("GET", cmPath(ns), { accept });
      });
      gc();
      const latencies = await runConcurrent(runs, 1, async () => {
        await http.send("GET", cmPath(ns), { accept });
      });
      rows.push(...latencyRows(`list ${size} ${encoding}`, latencies).slice(0, 1));
      rows.push({ metric: `list ${size} ${encoding} KiB`, value: first.bytes.length / 1024 });
    }
  }
  return rows;
}

async function currentResourceVersion(http: BenchHttp, namespace: string): Promise<string> {
  const list = JSON.parse(await http.call("GET", `${cmPath(namespace)}?limit=1`)) as {
    metadata: { resourceVersion: string };
  };
  return list.metadata.resourceVersion;
}

/** Writes per fan-out phase: enough deliveries to time, within [100, 2000] writes. */
function fanWrites(watchers: number, deliveries: number): number {
  return Math.min(2000, Math.max(100, Math.round(deliveries / watchers)));
}

/**
 * `watchers` watches of one namespace count every event while 32 clients create objects in it as
 * fast as the server takes them. Deliveries/s is events × watchers over the time from the first
 * write to the last event at the last watcher; the write rate meanwhile is shown beside it, so a
 * write-bound phase (few watchers) reads as such.
 */
export async function fanOutOnce(
  http: BenchHttp,
  watchers: number,
  deliveries: number,
): Promise<MetricRow[]> {
  const ns = `bench-fan-${watchers}`;
  await http.call("POST", "/api/v1/namespaces", {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: ns },
  });
  const rv = await currentResourceVersion(http, ns);
  const writes = fanWrites(watchers, deliveries);
  const watches: WatchStream[] = [];
  // Opened 50 at a time: a thousand TLS handshakes at once only measure the handshake queue.
  await runConcurrent(watchers, 50, async () => {
    watches.push(await http.watch(`${cmPath(ns)}?watch=1&resourceVersion=${rv}`, true));
  });
  try {
    const allSeen = Promise.all(watches.map((w) => w.countReached(writes)));
    gc();
    const t0 = performance.now();
    const written = await createMany(http, ns, writes, 32);
    const lastArrival = Math.max(...(await withTimeout(allSeen, eventTimeoutMs, "fan-out events")));
    return [
      {
        metric: `watch fan-out ${watchers} (live writes): deliveries/s`,
        value: (writes * watchers) / ((lastArrival - t0) / 1000),
        better: "higher",
      },
      { metric: `watch fan-out ${watchers} (live writes): writes/s meanwhile`, value: written.perSec },
    ];
  } finally {
    for (const w of watches) w.close();
  }
}

export async function watchFanOutPhase(
  target: BenchTarget,
  http: BenchHttp,
  sizes: WorkloadSizes,
  afterStep: (step: string) => Promise<void> = async () => {},
): Promise<MetricRow[]> {
  const rows: MetricRow[] = [];
  const runs = (mode: string) => sizes.fanModes === undefined || sizes.fanModes.includes(mode);
  for (const watchers of runs("live") ? sizes.fanWatchers : []) {
    rows.push(...(await fanOutOnce(http, watchers, sizes.fanDeliveries)));
    await afterStep(`live ${watchers}`);
  }
  const { fanWatchers, fanReplayDeliveries, fanReplayClients, http2 } = sizes;
  for (const watchers of runs("replay") ? fanWatchers : []) {
    rows.push(...(await replayRows(target, http, [watchers], fanReplayDeliveries, fanReplayClients, http2)));
    await afterStep(`replay ${watchers}`);
  }
  return rows;
}
