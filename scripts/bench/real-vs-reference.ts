/**
 * Reference server vs the real kube-apiserver + etcd on this machine (issue 4), in one run:
 * startup to ready, create latency and throughput at concurrency 1 and 16, get latency, lists of
 * a fixed-size namespace (whole and in pages), watch-event latency after a write, and fan-out to
 * several watchers. Prints one table with the ratio reference / real, and the environment.
 * Nothing is asserted: machines are noisy, read the ratios.
 *
 * Sessions alternate between the servers; each starts a fresh server, times its startup, runs the
 * whole workload and stops it, and every value shown is the median over the sessions. Only one
 * server runs at a time, both outside this process (the reference server in a forked child, so it
 * does not share the client's event loop), driven with plain undici over HTTPS and JSON.
 * Startup means startServer() until it resolves (reference) and openssl PKI + etcd healthy +
 * kube-apiserver /readyz ok (real, the harness's own timing). Needs scripts/real-apiserver/build.sh.
 *
 * Run: node --expose-gc --conditions=source --import tsx scripts/bench/real-vs-reference.ts
 * Env: BENCH_SESSIONS (3), BENCH_CREATES (2000), BENCH_GETS (2000), BENCH_LIST_OBJECTS (1000),
 *      BENCH_LIST_RUNS (50), BENCH_WATCH_WRITES (1000), BENCH_FAN_WATCHERS (10),
 *      BENCH_FAN_EVENTS (2000), BENCH_WARMUP (200).
 */
import { cpus, loadavg, totalmem } from "node:os";
import { dirname } from "node:path";
import { Agent, request } from "undici";
import { locateBinaries } from "../real-apiserver/start.js";
import { type BenchTarget, startReal, startReference } from "./bench-targets.js";
import { type MetricRow, runWorkload, type WorkloadSizes } from "./bench-workload.js";
import { percentile } from "./stats.js";

function sizeFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** Fresh-server sessions per server: startup is timed in each, the workload runs in each. */
const sessions = sizeFromEnv("BENCH_SESSIONS", 3);
const sizes: WorkloadSizes = {
  creates: sizeFromEnv("BENCH_CREATES", 2000),
  gets: sizeFromEnv("BENCH_GETS", 2000),
  listObjects: sizeFromEnv("BENCH_LIST_OBJECTS", 1000),
  listPageSize: 500,
  listRuns: sizeFromEnv("BENCH_LIST_RUNS", 50),
  watchWrites: sizeFromEnv("BENCH_WATCH_WRITES", 1000),
  fanWatchers: sizeFromEnv("BENCH_FAN_WATCHERS", 10),
  fanEvents: sizeFromEnv("BENCH_FAN_EVENTS", 2000),
  warmup: sizeFromEnv("BENCH_WARMUP", 200),
};

type ServerKind = "reference" | "real";

/** Per server: the metric rows of every session, in session order. */
type SessionRows = Record<ServerKind, MetricRow[][]>;

async function serverVersion(target: BenchTarget): Promise<string> {
  const agent = new Agent({ connect: { ca: target.ca } });
  try {
    const res = await request(`${target.url}/version`, {
      headers: { authorization: `Bearer ${target.token}` },
      dispatcher: agent,
    });
    return ((await res.body.json()) as { gitVersion?: string }).gitVersion ?? "unknown";
  } finally {
    await agent.close();
  }
}

/**
 * One session: start a fresh server (timed), run the workload, stop it whatever happens. Sessions
 * alternate ABBA-style (reference, real, real, reference, ...) so a change in the machine's load
 * during the run falls on both servers alike.
 */
async function session(
  kind: ServerKind,
  start: () => Promise<BenchTarget>,
  versions: Map<ServerKind, string>,
): Promise<MetricRow[]> {
  const target = await start();
  try {
    if (!versions.has(kind)) versions.set(kind, await serverVersion(target));
    const t0 = performance.now();
    const rows = await runWorkload(target, sizes);
    console.error(
      `${kind}: ready in ${target.startupMs.toFixed(0)} ms, workload ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    return [{ metric: "startup to ready ms", value: target.startupMs, better: "lower" }, ...rows];
  } finally {
    await target.stop();
  }
}

function sessionOrder(count: number): ServerKind[] {
  return Array.from({ length: count }, (_, i): ServerKind[] =>
    i % 2 === 0 ? ["reference", "real"] : ["real", "reference"],
  ).flat();
}

/** Each metric's median over the sessions. */
function medianRows(sessions: MetricRow[][]): MetricRow[] {
  const first = sessions[0] ?? [];
  return first.map((row, index) => {
    const values = sessions.map((rows) => rows[index]?.value ?? Number.NaN).sort((a, b) => a - b);
    return { ...row, value: percentile(values, 50) };
  });
}

function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function printTable(reference: MetricRow[], real: MetricRow[]): void {
  const realByMetric = new Map(real.map((row) => [row.metric, row.value]));
  const width = Math.max(...reference.map((row) => row.metric.length)) + 2;
  console.log(
    `${"metric".padEnd(width)}${"reference".padStart(11)}${"real".padStart(11)}${"ratio".padStart(9)}  faster`,
  );
  for (const row of reference) {
    const realValue = realByMetric.get(row.metric) ?? Number.NaN;
    const ratio = row.value / realValue;
    const faster =
      row.better === undefined || !Number.isFinite(ratio) || ratio === 1
        ? ""
        : (row.better === "lower") === ratio < 1
          ? "reference"
          : "real";
    console.log(
      `${row.metric.padEnd(width)}${formatValue(row.value).padStart(11)}${formatValue(realValue).padStart(11)}${(Number.isFinite(ratio) ? ratio.toFixed(2) : "n/a").padStart(9)}  ${faster}`,
    );
  }
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const startedAt = performance.now();
  // Looked up once here (build.sh --print-bin-dir), so each real start times only the servers.
  const binDir = dirname((await locateBinaries()).kubeApiserver);

  const starters: Record<ServerKind, () => Promise<BenchTarget>> = {
    reference: startReference,
    real: () => startReal(binDir),
  };
  const results: SessionRows = { reference: [], real: [] };
  const versions = new Map<ServerKind, string>();
  for (const kind of sessionOrder(sessions)) {
    results[kind].push(await session(kind, starters[kind], versions));
  }

  const cpuList = cpus();
  console.log("\nreal-vs-reference: reference server (@kubesdk/server) vs kube-apiserver + etcd");
  console.log(
    `node ${process.version}, ${cpuList.length} cores (${cpuList[0]?.model.trim() ?? "unknown cpu"}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
  );
  console.log(
    `load average at start ${loadAtStart.map((l) => l.toFixed(2)).join(" ")}, at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; whole run ${((performance.now() - startedAt) / 1000).toFixed(0)} s`,
  );
  console.log(
    `servers: reference ${versions.get("reference")}; real kube-apiserver ${versions.get("real")} (${binDir})`,
  );
  console.log(
    `sizes: ${Object.entries(sizes)
      .map(([k, v]) => `${k}=${v}`)
      .join(", ")}`,
  );
  console.log(
    `each value: median over ${sessions} sessions per server (fresh server each, alternating order); ` +
      "ratio = reference / real; HTTPS + JSON from this process, one server running at a time\n",
  );
  printTable(medianRows(results.reference), medianRows(results.real));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
