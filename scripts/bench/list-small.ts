/**
 * The small-list rows of server-vs-real.ts taken apart, on both servers: the wall time of whole
 * lists of LS_SIZE ConfigMaps beside the servers' CPU per list, the client's CPU per list, and
 * the read and write system calls each side makes per list. A fresh server of each kind per
 * round, in alternating order, first warmed like the ratio bench warms it (its write and get
 * phases, bench-workload.ts), then per encoding: LS_UNMEASURED unmeasured lists (the first fills
 * the caches), the ratio bench's LS_COLD timed lists ("cold": the list path's first requests),
 * then LS_SUSTAINED more ("sustained").
 *
 * Server CPU: the reference server's process.cpuUsage() (all its threads); kube-apiserver + etcd
 * from /proc/<pid>/task/<tid>/schedstat (ns, every thread). System calls: /proc/<pid>/io's syscr
 * and syscw (reads and writes of any kind, pipes and files included, so a few are the harness's).
 *
 * Run: BENCH_SERVER=built node --expose-gc --conditions=source --import tsx scripts/bench/list-small.ts
 * Env: LS_ROUNDS (2), LS_SIZE (500), LS_UNMEASURED (1), LS_COLD (30), LS_SUSTAINED (300), LS_TARGETS
 *      ("reference,real"), LS_WARM ("write,get": bench-workload phases run first; "" for none;
 *      "write,sustained,get" as server-vs-real runs them), BENCH_WRITES (1000), BENCH_GETS (2000),
 *      BENCH_WARMUP (200), BENCH_SUSTAINED_WARMUP (5000), BENCH_SUSTAINED_WRITES (2000).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { Agent, request } from "undici";
import { locateBinaries, startRealApiserver } from "../real-apiserver/start.js";
import { benchHttp } from "./bench-http.js";
import { cmPath, createMany } from "./bench-objects.js";
import { type BenchTarget, schedMicros, startReference } from "./bench-targets.js";
import { runWorkload } from "./bench-workload.js";
import { gc, percentile } from "./stats.js";

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const list = (name: string, fallback: string) =>
  (process.env[name] ?? fallback)
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");

const PROTOBUF = "application/vnd.kubernetes.protobuf";
const size = num("LS_SIZE", 500);
const phases = [
  ["cold", num("LS_COLD", 30)],
  ["sustained", num("LS_SUSTAINED", 300)],
] as const;

/** What a measured process exposes: its CPU so far (µs) and its read/write syscall counts. */
interface Probe {
  cpuMicros(): Promise<number>;
  pids(): number[];
}

interface Started {
  target: BenchTarget;
  probe: Probe;
}

function syscalls(pids: readonly number[]): { r: number; w: number } {
  let r = 0;
  let w = 0;
  for (const pid of pids) {
    const io = readFileSync(`/proc/${pid}/io`, "utf8");
    r += Number(/^syscr: (\d+)/m.exec(io)?.[1] ?? 0);
    w += Number(/^syscw: (\d+)/m.exec(io)?.[1] ?? 0);
  }
  return { r, w };
}

/** The forked reference server child (the only child of this process running that script). */
function referenceChildPid(): number {
  for (const tid of readdirSync("/proc/self/task")) {
    const children = readFileSync(`/proc/self/task/${tid}/children`, "utf8").trim().split(/\s+/);
    for (const pid of children.filter((p) => p !== "").map(Number)) {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("reference-server-child")) return pid;
    }
  }
  throw new Error("reference server child not found");
}

async function start(kind: string, binDir: string): Promise<Started> {
  if (kind === "reference") {
    const target = await startReference();
    const pid = referenceChildPid();
    return {
      target,
      probe: { cpuMicros: () => (target.cpuMicros as () => Promise<number>)(), pids: () => [pid] },
    };
  }
  const server = await startRealApiserver({ binDir });
  const pids = [server.pids.apiserver, server.pids.etcd].filter((p): p is number => p !== undefined);
  const target: BenchTarget = {
    url: server.url,
    ca: server.caPem,
    token: server.token,
    startupMs: server.timings.apiserverReadyMs,
    peakRssBytes: async () => 0,
    stop: () => server.stop(),
  };
  return { target, probe: { cpuMicros: async () => schedMicros(pids), pids: () => pids } };
}

interface Sample {
  /** The wall time until the response's head arrived (the server's part), p50. */
  head: number;
  p50: number;
  p10: number;
  p90: number;
  serverUs: number;
  clientUs: number;
  serverR: number;
  serverW: number;
  clientR: number;
  clientW: number;
}

/** One whole list the way bench-http.ts sends it: ms to the head and to the whole body read. */
async function timedList(lister: Lister, accept: string): Promise<[number, number]> {
  const t0 = performance.now();
  const res = await request(lister.url, {
    headers: { authorization: `Bearer ${lister.token}`, accept },
    dispatcher: lister.agent,
  });
  const head = performance.now() - t0;
  const bytes = Buffer.from(await res.body.arrayBuffer());
  if (res.statusCode !== 200 || bytes.length === 0) throw new Error(`list answered ${res.statusCode}`);
  return [head, performance.now() - t0];
}

interface Lister {
  readonly url: string;
  readonly token: string;
  readonly agent: Agent;
}

async function timedLists(lister: Lister, probe: Probe, accept: string, runs: number): Promise<Sample> {
  gc();
  const walls: number[] = [];
  const heads: number[] = [];
  const s0 = await probe.cpuMicros();
  const io0 = syscalls(probe.pids());
  const cio0 = syscalls([process.pid]);
  const c0 = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const [head, wall] = await timedList(lister, accept);
    heads.push(head);
    walls.push(wall);
  }
  const c = process.cpuUsage(c0);
  const cio = syscalls([process.pid]);
  const io = syscalls(probe.pids());
  const s1 = await probe.cpuMicros();
  const sorted = walls.sort((a, b) => a - b);
  return {
    head: percentile(
      heads.sort((a, b) => a - b),
      50,
    ),
    p50: percentile(sorted, 50),
    p10: percentile(sorted, 10),
    p90: percentile(sorted, 90),
    serverUs: (s1 - s0) / runs,
    clientUs: (c.user + c.system) / runs,
    serverR: (io.r - io0.r) / runs,
    serverW: (io.w - io0.w) / runs,
    clientR: (cio.r - cio0.r) / runs,
    clientW: (cio.w - cio0.w) / runs,
  };
}

const warmPhases = list("LS_WARM", "write,get");
/** Unmeasured lists per encoding before the timed ones (the first fills the item caches). */
const unmeasured = Math.max(1, num("LS_UNMEASURED", 1));

async function measure(started: Started): Promise<Map<string, Sample>> {
  const { target, probe } = started;
  if (warmPhases.length > 0) {
    await runWorkload(target, {
      writes: num("BENCH_WRITES", 1000),
      sustainedWarmup: num("BENCH_SUSTAINED_WARMUP", 5000),
      sustainedWrites: num("BENCH_SUSTAINED_WRITES", 2000),
      gets: num("BENCH_GETS", 2000),
      getWarmup: 0,
      listSizes: [],
      listRuns: 0,
      listWarmup: 0,
      fanWatchers: [],
      fanDeliveries: 0,
      fanReplayDeliveries: 0,
      fanReplayClients: 1,
      phases: warmPhases,
      warmup: num("BENCH_WARMUP", 200),
      http2: false,
    });
  }
  const http = benchHttp(target, { connections: 32 });
  const lister = {
    url: target.url + cmPath("ls-list"),
    token: target.token,
    agent: new Agent({ connect: { ca: target.ca } }),
  };
  const out = new Map<string, Sample>();
  try {
    await http.call("POST", "/api/v1/namespaces", {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "ls-list" },
    });
    await createMany(http, "ls-list", size, 32);
    for (const encoding of ["json", "protobuf"] as const) {
      const accept = encoding === "json" ? "application/json" : PROTOBUF;
      for (let i = 0; i < unmeasured; i++) await timedList(lister, accept);
      for (const [phase, runs] of phases)
        out.set(`${encoding} ${phase}`, await timedLists(lister, probe, accept, runs));
    }
  } finally {
    await Promise.all([http.close(), lister.agent.close()]);
  }
  return out;
}

const f = (n: number, d = 0) => n.toFixed(d);

function report(kind: string, round: number, samples: Map<string, Sample>): void {
  for (const [key, s] of samples) {
    console.log(
      `${kind.padEnd(9)} r${round} ${key.padEnd(18)} head ${f(s.head, 3)}  p50 ${f(s.p50, 3)} ms [p10 ${f(s.p10, 3)} p90 ${f(s.p90, 3)}]` +
        `  server ${f(s.serverUs)} µs  client ${f(s.clientUs)} µs` +
        `  server r/w ${f(s.serverR, 1)}/${f(s.serverW, 1)}  client r/w ${f(s.clientR, 1)}/${f(s.clientW, 1)}`,
    );
  }
}

const binDir = dirname((await locateBinaries()).kubeApiserver);
const kinds = list("LS_TARGETS", "reference,real");
for (let round = 1; round <= num("LS_ROUNDS", 2); round++) {
  const order = round % 2 === 1 ? kinds : [...kinds].reverse();
  for (const kind of order) {
    const started = await start(kind, binDir);
    try {
      report(kind, round, await measure(started));
    } finally {
      await started.target.stop();
    }
  }
}
