/**
 * The reference server vs the real kube-apiserver + etcd on this machine (issue 35), in one run:
 * start to first request (startTestServer() in process, the CLI, and the servers' own start),
 * creates / updates / server-side applies / deletes per second at 1 and 8 clients (cold and
 * sustained), GET latency, whole lists of 500 / 5,000 / 50,000 objects in JSON and protobuf, watch
 * fan-out to 1, 100 and 1,000 watchers (live: while writes run; replay: events written first, then
 * replayed to every watcher from the server's history, see watch-replay.ts), peak RSS, and
 * (BENCH_CONTRACT=1) the wall time of contract suites on each.
 * Prints one table: the median over rounds per server, the ratio reference / real, and the
 * spread of that ratio over the rounds. Nothing is asserted: machines are noisy, read the ratios.
 *
 * Each round starts a fresh server of each kind per protocol, alternating the order (ABBA), runs
 * the whole workload on it and stops it; only one server runs at a time, both outside this process
 * (the reference server in a forked child), driven with plain undici over HTTPS. Needs
 * scripts/real-apiserver/build.sh, and `pnpm build` for the CLI start.
 *
 * The write rows come twice (bench-writes.ts): "cold", the fresh server's first writes, and
 * "sustained", after an unmeasured warm-up of every verb; issue 35's write goal is judged on the
 * sustained rows. The table's goal column marks the rows the issue's goals are set on.
 *
 * Run: pnpm bench:server:vs-real
 * Env: BENCH_ROUNDS (3), BENCH_PROTOCOLS ("http1.1,h2"; empty: no workload, e.g. contract
 *      only), BENCH_WRITES (1000, the cold rows), BENCH_SUSTAINED_WARMUP (5000 per verb),
 *      BENCH_SUSTAINED_WRITES (2000; 0 skips the sustained rows), BENCH_GETS (2000),
 *      BENCH_GET_WARMUP (0), BENCH_LIST_SIZES ("500,5000,50000"), BENCH_LIST_RUNS (30 at the
 *      smallest size, in proportion above it, at least 7), BENCH_LIST_WARMUP (20 per size and
 *      encoding, unmeasured), BENCH_FAN_WATCHERS ("1,100,1000"), BENCH_FAN_DELIVERIES (100000),
 *      BENCH_FAN_MODES ("live,replay": the watch phase's parts), BENCH_REPLAY_READER ("go"; "node":
 *      the replay rows' Node reader, see watch-replay-children.ts), BENCH_REPLAY_GO_PROCS (1),
 *      BENCH_WARMUP (200), BENCH_CONTRACT (0), BENCH_CONTRACT_FILES (comma-separated; default in
 *      bench-contract.ts), BENCH_CPU_PROF (a directory: CPU profiles of the reference server
 *      processes), BENCH_SERVER=built (the reference server's build, as published, not its
 *      sources through tsx; needs a fresh `pnpm build`, see built-server.ts).
 */
import { cpus, loadavg, totalmem } from "node:os";
import { dirname } from "node:path";
import { Agent, request } from "undici";
import { locateBinaries } from "../real-apiserver/start.js";
import { defaultContractFiles, timeContractSuites } from "./bench-contract.js";
import { goalCell } from "./bench-goals.js";
import { type BenchTarget, startReal, startReference, timeCliStart } from "./bench-targets.js";
import { type MetricRow, runWorkload, type WorkloadSizes } from "./bench-workload.js";
import { percentile } from "./stats.js";

function sizeFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function listFromEnv(name: string, fallback: string): string[] {
  return (process.env[name] ?? fallback)
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

function sizesFromEnv(name: string, fallback: string): number[] {
  return listFromEnv(name, fallback).map((part) => {
    const value = Number(part);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name}: ${part} is not a positive integer`);
    return value;
  });
}

/** Fresh-server rounds: each round starts every server kind once per protocol. */
const rounds = Math.max(1, sizeFromEnv("BENCH_ROUNDS", 3));
type Protocol = "http1.1" | "h2";
const protocols = listFromEnv("BENCH_PROTOCOLS", "http1.1,h2").map((p): Protocol => {
  if (p !== "http1.1" && p !== "h2") throw new Error(`BENCH_PROTOCOLS: ${p} is neither http1.1 nor h2`);
  return p;
});
const baseSizes: Omit<WorkloadSizes, "http2"> = {
  writes: sizeFromEnv("BENCH_WRITES", 1000),
  sustainedWarmup: sizeFromEnv("BENCH_SUSTAINED_WARMUP", 5000),
  sustainedWrites: sizeFromEnv("BENCH_SUSTAINED_WRITES", 2000),
  gets: sizeFromEnv("BENCH_GETS", 2000),
  getWarmup: sizeFromEnv("BENCH_GET_WARMUP", 0),
  listSizes: sizesFromEnv("BENCH_LIST_SIZES", "500,5000,50000"),
  listRuns: sizeFromEnv("BENCH_LIST_RUNS", 30),
  listWarmup: sizeFromEnv("BENCH_LIST_WARMUP", 20),
  fanWatchers: sizesFromEnv("BENCH_FAN_WATCHERS", "1,100,1000"),
  fanDeliveries: sizeFromEnv("BENCH_FAN_DELIVERIES", 100_000),
  fanReplayDeliveries: sizeFromEnv("BENCH_REPLAY_DELIVERIES", 200_000),
  fanReplayClients: Math.max(1, sizeFromEnv("BENCH_REPLAY_CLIENTS", 4)),
  phases: process.env.BENCH_PHASES === undefined ? undefined : listFromEnv("BENCH_PHASES", ""),
  fanModes: process.env.BENCH_FAN_MODES === undefined ? undefined : listFromEnv("BENCH_FAN_MODES", ""),
  warmup: sizeFromEnv("BENCH_WARMUP", 200),
};
const contractFiles = listFromEnv("BENCH_CONTRACT_FILES", defaultContractFiles.join(","));

type ServerKind = "reference" | "real";

/** Per server: the metric rows of every round, in round order. */
type RoundRows = Record<ServerKind, MetricRow[][]>;

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

const MiB = 2 ** 20;

/** Start-up rows: the reference's three ways of starting against the real server's one. */
async function startRows(kind: ServerKind, target: BenchTarget): Promise<MetricRow[]> {
  const cli = kind === "reference" ? await timeCliStart() : target.startupMs;
  return [
    {
      metric: "start to first request, in process ms",
      value: target.testServerMs ?? target.startupMs,
      better: "lower",
    },
    { metric: "start to first request, CLI ms", value: cli, better: "lower" },
    { metric: "startServer / apiserver ready ms", value: target.startupMs, better: "lower" },
  ];
}

/**
 * One fresh server: start it, run the workload over `protocol`, read its peak RSS, stop it
 * whatever happens.
 */
async function session(
  kind: ServerKind,
  protocol: Protocol,
  start: () => Promise<BenchTarget>,
  versions: Map<ServerKind, string>,
): Promise<MetricRow[]> {
  const target = await start();
  try {
    if (!versions.has(kind)) versions.set(kind, await serverVersion(target));
    const t0 = performance.now();
    const rows = await runWorkload(target, { ...baseSizes, http2: protocol === "h2" });
    const rss = await target.peakRssBytes();
    console.error(
      `${kind} ${protocol}: ready in ${target.startupMs.toFixed(0)} ms, workload ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const tagged = rows.map((row) => ({ ...row, metric: `[${protocol}] ${row.metric}` }));
    const startup = protocol === protocols[0] ? await startRows(kind, target) : [];
    return [
      ...startup,
      ...tagged,
      { metric: `[${protocol}] peak RSS MiB`, value: rss / MiB, better: "lower" },
    ];
  } finally {
    await target.stop();
  }
}

/** ABBA: reference first in even rounds, real first in odd ones. */
function roundOrder(round: number): ServerKind[] {
  return round % 2 === 0 ? ["reference", "real"] : ["real", "reference"];
}

/** Each metric's values over the rounds, by metric name. */
function valuesByMetric(rounds: MetricRow[][]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const rows of rounds) {
    for (const row of rows) out.set(row.metric, [...(out.get(row.metric) ?? []), row.value]);
  }
  return out;
}

const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** Medians per server, their ratio, and the lowest–highest per-round ratio (round i vs round i). */
function printTable(results: RoundRows): void {
  const reference = valuesByMetric(results.reference);
  const real = valuesByMetric(results.real);
  const better = new Map(results.reference.flat().map((row) => [row.metric, row.better]));
  const width = Math.max(...[...reference.keys()].map((metric) => metric.length)) + 2;
  console.log(
    `${"metric".padEnd(width)}${"reference".padStart(11)}${"real".padStart(11)}${"ratio".padStart(8)}  ${"round ratios".padEnd(13)} ${"faster".padEnd(9)}  goal`,
  );
  for (const [metric, values] of reference) {
    const realValues = real.get(metric) ?? [];
    const ratio = median(values) / median(realValues);
    const perRound = values.map((v, i) => v / (realValues[i] ?? Number.NaN)).filter(Number.isFinite);
    const spread =
      perRound.length === 0
        ? "n/a"
        : `${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)}`;
    const way = better.get(metric);
    const faster =
      way === undefined || !Number.isFinite(ratio) || ratio === 1
        ? ""
        : (way === "lower") === ratio < 1
          ? "reference"
          : "real";
    console.log(
      `${metric.padEnd(width)}${formatValue(median(values)).padStart(11)}${formatValue(median(realValues)).padStart(11)}${(Number.isFinite(ratio) ? ratio.toFixed(2) : "n/a").padStart(8)}  ${spread.padEnd(13)} ${faster.padEnd(9)}  ${goalCell(metric, ratio, median(values))}`.trimEnd(),
    );
  }
}

async function contractRound(round: number): Promise<Record<ServerKind, MetricRow>> {
  const out: Partial<Record<ServerKind, MetricRow>> = {};
  for (const kind of roundOrder(round)) {
    const ms = await timeContractSuites(kind, contractFiles);
    console.error(`${kind}: contract suites in ${(ms / 1000).toFixed(1)} s`);
    out[kind] = {
      metric: `contract suites (${contractFiles.length} files) s`,
      value: ms / 1000,
      better: "lower",
    };
  }
  return out as Record<ServerKind, MetricRow>;
}

function printEnvironment(
  loadAtStart: number[],
  startedAt: number,
  versions: Map<ServerKind, string>,
  binDir: string,
) {
  const cpuList = cpus();
  console.log("\nserver-vs-real: reference server (@kubesdk/server) vs kube-apiserver + etcd");
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
    `sizes: ${Object.entries(baseSizes)
      .map(([k, v]) => `${k}=${v}`)
      .join(", ")}; protocols offered: ${protocols.join(", ")}`,
  );
  console.log(
    `each value: median over ${rounds} rounds per server (fresh server each, alternating order); ` +
      "ratio = reference / real; round ratios = lowest–highest of round i reference / round i real",
  );
  console.log(
    `writes: "cold" = a fresh server's first ${baseSizes.writes} per verb (c=1, then c=8) after ${baseSizes.warmup} ` +
      `warm-ups; "sustained" = ${baseSizes.sustainedWrites} per verb after ${baseSizes.sustainedWarmup} unmeasured ` +
      "writes of each verb at c=8; goal = issue 35's, marked on the http1.1 rows (writes: the sustained ones)\n",
  );
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
  const results: RoundRows = { reference: [], real: [] };
  const versions = new Map<ServerKind, string>();
  for (let round = 0; round < rounds; round++) {
    const rows: Record<ServerKind, MetricRow[]> = { reference: [], real: [] };
    for (const protocol of protocols) {
      for (const kind of roundOrder(round))
        rows[kind].push(...(await session(kind, protocol, starters[kind], versions)));
    }
    if (sizeFromEnv("BENCH_CONTRACT", 0) > 0) {
      const contract = await contractRound(round);
      rows.reference.push(contract.reference);
      rows.real.push(contract.real);
    }
    results.reference.push(rows.reference);
    results.real.push(rows.real);
  }
  printEnvironment(loadAtStart, startedAt, versions, binDir);
  printTable(results);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
