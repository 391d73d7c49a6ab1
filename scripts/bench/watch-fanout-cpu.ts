/**
 * Server CPU per watch delivery (issue 35's fan-out): the reference server in its own process,
 * N JSON watchers of one namespace (counting lines only), and creates at 32 clients into it. Each
 * round writes the same number of objects with no watchers, then with each watcher count, and
 * reads the server's CPU time (user + system, over IPC) around each batch; a delivery's cost is
 * (CPU with N watchers − CPU with none) ÷ (writes × N), so the writes' own cost drops out. Also
 * prints deliveries per second of wall time (noisy on a shared machine: read the CPU figure).
 *
 * Replay rows (watch-replay.ts): `BENCH_REPLAY_EVENTS` creates first, then N watches (spread over
 * client processes, connections opened beforehand) from the resourceVersion before them, so the
 * server replays the same events from its history to each; µs of server CPU from "go" to the last
 * event, ÷ (events × N). That includes each watch's request, with no writes to subtract. Beside
 * it, the client processes' CPU per watch (the reader: BENCH_REPLAY_READER, watch-replay-children.ts).
 *
 * Run: pnpm bench:watch:cpu
 * Env: BENCH_ROUNDS (4; a warm-up round more is not reported), BENCH_FAN_WATCHERS ("100,1000"),
 *      BENCH_FAN_WRITES (500), BENCH_REPLAY_EVENTS (500), BENCH_REPLAY_CLIENTS (4),
 *      BENCH_FAN_MODES ("live,replay"), BENCH_CPU_PROF (a directory: a V8 CPU profile of the server).
 */
import { type BenchHttp, benchHttp, type WatchStream } from "./bench-http.js";
import { cmPath, createMany } from "./bench-objects.js";
import { startReference } from "./bench-targets.js";
import { runConcurrent } from "./stats.js";
import { replayFanOut } from "./watch-replay.js";

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const rounds = num("BENCH_ROUNDS", 4);
const writes = num("BENCH_FAN_WRITES", 500);
const watcherCounts = (process.env.BENCH_FAN_WATCHERS ?? "100,1000").split(",").map(Number);
const replayEvents = num("BENCH_REPLAY_EVENTS", 500);
const replayClients = num("BENCH_REPLAY_CLIENTS", 4);
const modes = (process.env.BENCH_FAN_MODES ?? "live,replay").split(",");

const target = await startReference();
const http = benchHttp(target, { connections: 32 });
const cpu = target.cpuMicros as () => Promise<number>;

async function resourceVersion(ns: string): Promise<string> {
  const list = JSON.parse(await http.call("GET", `${cmPath(ns)}?limit=1`)) as {
    metadata: { resourceVersion: string };
  };
  return list.metadata.resourceVersion;
}

/** One batch: `watchers` watches of a fresh namespace, `writes` creates; server µs and wall ms. */
async function batch(h: BenchHttp, ns: string, watchers: number): Promise<{ cpu: number; ms: number }> {
  await h.call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
  const rv = await resourceVersion(ns);
  const watches: WatchStream[] = [];
  await runConcurrent(watchers, 50, async () => {
    watches.push(await h.watch(`${cmPath(ns)}?watch=1&resourceVersion=${rv}`, true));
  });
  try {
    const allSeen = Promise.all(watches.map((w) => w.countReached(writes)));
    gc?.();
    const before = await cpu();
    const t0 = performance.now();
    await createMany(h, ns, writes, 32);
    const last = Math.max(t0, ...(await allSeen));
    return { cpu: (await cpu()) - before, ms: last - t0 };
  } finally {
    for (const w of watches) w.close();
  }
}

const results = new Map<string, number[]>();
const record = (key: string, value: number) => results.set(key, [...(results.get(key) ?? []), value]);

async function liveRound(round: number): Promise<void> {
  const base = await batch(http, `fan-r${round}-w0`, 0);
  if (round > 0) record("writes alone (µs/write)", base.cpu / writes);
  for (const n of watcherCounts) {
    const r = await batch(http, `fan-r${round}-w${n}`, n);
    if (round === 0) continue;
    record(`fan-out ${n}: server µs/delivery`, (r.cpu - base.cpu) / (writes * n));
    record(`fan-out ${n}: deliveries/s`, (writes * n) / (r.ms / 1000));
  }
}

async function replayRound(round: number): Promise<void> {
  for (const n of watcherCounts) {
    const namespace = `replay-r${round}-w${n}`;
    const o = { watchers: n, events: replayEvents, clients: replayClients, http2: false, namespace };
    const r = await replayFanOut(target, http, { ...o, serverCpu: cpu });
    if (round === 0) continue;
    record(`replay ${n}: server µs/delivery`, (r.serverCpuMicros ?? Number.NaN) / (replayEvents * n));
    record(`replay ${n}: deliveries/s`, r.deliveriesPerSec);
    record(`replay ${n}: busiest client CPU/wall`, r.clientCpuShare);
    record(`replay ${n}: clients' µs/watch`, (r.clientCpuMs * 1000) / n);
  }
}

try {
  for (let round = 0; round <= rounds; round++) {
    if (modes.includes("live")) await liveRound(round);
    if (modes.includes("replay")) await replayRound(round);
  }
} finally {
  await http.close();
  await target.stop();
}

console.log(
  `watch fan-out, ${writes} writes per live batch, ${replayEvents} events per replay, ${rounds} rounds (median [min–max])`,
);
for (const [key, values] of results) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(2));
  console.log(
    `${key.padEnd(38)} ${fmt(median).padStart(9)}  [${fmt(sorted[0] as number)}–${fmt(sorted.at(-1) as number)}]`,
  );
}
