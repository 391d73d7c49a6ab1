/**
 * Replay fan-out (issue 35's "watch fan-out with writes not the bottleneck"): `events` ConfigMaps
 * are written first, then `watchers` watches open from the resourceVersion before them, so the
 * server replays the same events from its history (kube-apiserver: its watch cache) to every
 * watcher, from memory, with no writes in flight. The watches are read by client processes whose
 * connections are opened before the clock starts; each counts lines and checks only the last
 * event's resourceVersion. On HTTP/1.1 the reader is Go by default (watch-replay-go/: one process,
 * its watches on goroutines), which costs a fraction of the server's CPU, so on a two-core machine
 * the row times the server; BENCH_REPLAY_READER=node reads with Node processes instead
 * (watch-replay-client.ts, `clients` of them, as before), and HTTP/2 rows always do (undici). See
 * watch-replay-children.ts. Deliveries/s is events ×
 * watchers over the time from "go" to the last client's last event; beside it, the busiest
 * client's CPU ÷ its wall time shows whether the clients could have been what bound it (near 1:
 * they were; well below: they waited for the server).
 */

import { type BenchChild, nextMessage } from "./bench-child.js";
import { type BenchHttp, withTimeout } from "./bench-http.js";
import { cmPath, createMany, type MetricRow } from "./bench-objects.js";
import type { BenchTarget } from "./bench-targets.js";
import { gc } from "./stats.js";
import { replayProcesses, replayReader, startReplayChildren } from "./watch-replay-children.js";
import type { ReplayDone, ReplaySetup } from "./watch-replay-client.js";

const replayTimeoutMs = 180_000;

export interface ReplayOptions {
  readonly watchers: number;
  /** Events each watcher is replayed. */
  readonly events: number;
  /** Node reader's client processes (at most one per watcher; the Go reader's: BENCH_REPLAY_GO_PROCS). */
  readonly clients: number;
  readonly http2: boolean;
  /** A fresh namespace for the events; `bench-replay-<watchers>` unless given. */
  readonly namespace?: string;
  /** The server's CPU time so far, µs (reference only): read at "go" and at the last event. */
  readonly serverCpu?: () => Promise<number>;
}

export interface ReplayResult {
  readonly deliveriesPerSec: number;
  /** The busiest client process's CPU time ÷ its wall time over the phase. */
  readonly clientCpuShare: number;
  /** All client processes' CPU time over the phase, ms. */
  readonly clientCpuMs: number;
  readonly wallMs: number;
  /** Server CPU from "go" to the last event, µs, when `serverCpu` was given. */
  readonly serverCpuMicros?: number;
}

class ReplayPhaseError extends Error {
  override readonly name = "ReplayPhaseError";
  readonly code = "BENCH_REPLAY_FAILED";
}

/** Writes the events; resolves with the resourceVersion before them and that of the last one. */
export async function writeEvents(http: BenchHttp, ns: string, events: number): Promise<[string, string]> {
  await http.call("POST", "/api/v1/namespaces", {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: ns },
  });
  const before = JSON.parse(await http.call("GET", `${cmPath(ns)}?limit=1`)) as {
    metadata: { resourceVersion: string };
  };
  await createMany(http, ns, events, 32);
  const list = JSON.parse(await http.call("GET", `${cmPath(ns)}?labelSelector=app%3Dbench`)) as {
    items: { metadata: { resourceVersion: string } }[];
  };
  if (list.items.length !== events) throw new ReplayPhaseError(`listed ${list.items.length} of ${events}`);
  const last = Math.max(...list.items.map((item) => Number(item.metadata.resourceVersion)));
  return [before.metadata.resourceVersion, String(last)];
}

/** The next message of `child` (its `key` field; the whole message for ""); rejects on a failure or an early exit. */
async function answer<T>(child: BenchChild, key: string): Promise<T> {
  const message = (await nextMessage(child)) as Record<string, unknown>;
  if (typeof message === "object" && "failed" in message) {
    throw new ReplayPhaseError(`replay client: ${String(message.failed)}`);
  }
  return (key === "" ? message : message[key]) as T;
}

export async function replayFanOut(
  target: BenchTarget,
  http: BenchHttp,
  o: ReplayOptions,
): Promise<ReplayResult> {
  const ns = o.namespace ?? `bench-replay-${o.watchers}`;
  const [from, lastResourceVersion] = await writeEvents(http, ns, o.events);
  return replayWritten(target, ns, from, lastResourceVersion, o);
}

/** The replay of events already written into `ns` after `from`, the last at `lastResourceVersion`. */
export async function replayWritten(
  target: BenchTarget,
  ns: string,
  from: string,
  lastResourceVersion: string,
  o: ReplayOptions,
): Promise<ReplayResult> {
  const path = `${cmPath(ns)}?watch=1&resourceVersion=${from}&labelSelector=app%3Dbench`;
  const reader = replayReader(o.http2);
  const k = replayProcesses(reader, Math.max(1, o.clients), o.watchers);
  const children = startReplayChildren(reader, k);
  try {
    const ready = children.map((child, i) => {
      const watchers = Math.floor(o.watchers / k) + (i < o.watchers % k ? 1 : 0);
      const { url, ca, token } = target;
      const setup: ReplaySetup = {
        url,
        ca,
        token,
        http2: o.http2,
        path,
        watchers,
        events: o.events,
        lastResourceVersion,
      };
      const answered = answer<string>(child, "");
      child.send({ setup });
      return answered;
    });
    await withTimeout(Promise.all(ready), replayTimeoutMs, "replay clients' connections");
    gc();
    const done = children.map((child) => answer<ReplayDone>(child, "done"));
    const cpu0 = await o.serverCpu?.();
    const t0 = performance.now();
    for (const child of children) child.send("go");
    const results = await withTimeout(Promise.all(done), replayTimeoutMs, "replayed events");
    const wallMs = performance.now() - t0;
    const cpu1 = await o.serverCpu?.();
    return {
      serverCpuMicros: cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0,
      deliveriesPerSec: (o.events * o.watchers) / (wallMs / 1000),
      clientCpuShare: Math.max(...results.map((r) => r.cpuMicros / 1000 / r.wallMs)),
      clientCpuMs: results.reduce((sum, r) => sum + r.cpuMicros / 1000, 0),
      wallMs,
    };
  } finally {
    for (const child of children) child.stop();
  }
}

/** The phase's rows for each watcher count. */
export async function replayRows(
  target: BenchTarget,
  http: BenchHttp,
  watcherCounts: readonly number[],
  deliveries: number,
  clients: number,
  http2: boolean,
): Promise<MetricRow[]> {
  const rows: MetricRow[] = [];
  for (const watchers of watcherCounts) {
    const events = Math.min(5000, Math.max(100, Math.round(deliveries / watchers)));
    const serverCpu = target.cpuMicros;
    const r = await replayFanOut(target, http, { watchers, events, clients, http2, serverCpu });
    rows.push(
      { metric: `watch replay ${watchers}: deliveries/s`, value: r.deliveriesPerSec, better: "higher" },
      { metric: `watch replay ${watchers}: busiest client CPU/wall`, value: r.clientCpuShare },
      { metric: `watch replay ${watchers}: clients' CPU ms`, value: r.clientCpuMs },
    );
    if (r.serverCpuMicros !== undefined) {
      const value = r.serverCpuMicros / watchers;
      rows.push({ metric: `watch replay ${watchers}: server CPU µs/watch`, value });
    }
  }
  return rows;
}
