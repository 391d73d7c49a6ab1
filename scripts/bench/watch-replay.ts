/**
 * Replay fan-out (issue 35's "watch fan-out with writes not the bottleneck"): `events` ConfigMaps
 * are written first, then `watchers` watches open from the resourceVersion before them, so the
 * server replays the same events from its history (kube-apiserver: its watch cache) to every
 * watcher, from memory, with no writes in flight. The watches are spread over several client
 * processes (watch-replay-client.ts) whose connections are opened before the clock starts; each
 * counts lines and checks only the last event's resourceVersion. Deliveries/s is events ×
 * watchers over the time from "go" to the last client's last event; beside it, the busiest
 * client's CPU ÷ its wall time shows whether the clients could have been what bound it (near 1:
 * they were; well below: they waited for the server).
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type BenchHttp, withTimeout } from "./bench-http.js";
import { cmPath, createMany, type MetricRow } from "./bench-objects.js";
import type { BenchTarget } from "./bench-targets.js";
import { gc } from "./stats.js";
import type { ReplayDone, ReplaySetup } from "./watch-replay-client.js";

const clientScript = fileURLToPath(new URL("./watch-replay-client.ts", import.meta.url));
const replayTimeoutMs = 180_000;

export interface ReplayOptions {
  readonly watchers: number;
  /** Events each watcher is replayed. */
  readonly events: number;
  /** Client processes (at most one per watcher). */
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
function nextMessage<T>(child: ChildProcess, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = () => reject(new ReplayPhaseError("replay client exited early"));
    child.once("exit", onExit);
    child.once("message", (m) => {
      child.off("exit", onExit);
      const message = m as Record<string, unknown>;
      if (typeof message === "object" && "failed" in message) {
        reject(new ReplayPhaseError(`replay client: ${String(message.failed)}`));
      } else resolve((key === "" ? m : message[key]) as T);
    });
  });
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
  const k = Math.max(1, Math.min(o.clients, o.watchers));
  const children = Array.from({ length: k }, () =>
    fork(clientScript, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] }),
  );
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
      const answer = nextMessage<string>(child, "");
      child.send({ setup });
      return answer;
    });
    await withTimeout(Promise.all(ready), replayTimeoutMs, "replay clients' connections");
    gc();
    const done = children.map((child) => nextMessage<ReplayDone>(child, "done"));
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
      wallMs,
    };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
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
    const r = await replayFanOut(target, http, { watchers, events, clients, http2 });
    rows.push(
      { metric: `watch replay ${watchers}: deliveries/s`, value: r.deliveriesPerSec, better: "higher" },
      { metric: `watch replay ${watchers}: busiest client CPU/wall`, value: r.clientCpuShare },
    );
  }
  return rows;
}
