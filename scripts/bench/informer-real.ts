/**
 * Informer sync against a real kube-apiserver (+ etcd, built by scripts/real-apiserver/build.sh):
 * JSON or protobuf, which one costs less end to end? BENCH_OBJECTS ConfigMaps (default 50 000, the
 * replay benchmark's shape: ~1 KiB, eight 100-character values) are created once; then each round
 * syncs a fresh informer in a fresh child process, once per encoding, in alternating order.
 * Reported per encoding (medians of BENCH_ROUNDS, default 5): time to synced, the client's CPU time,
 * and the CPU time kube-apiserver and etcd spent meanwhile (from /proc). The watch cache is on (the
 * apiserver's default), so lists are served from memory and the encoding is most of the server's work.
 *
 * With --unpaged, each encoding is also measured listing everything in one response (pageSize 0).
 *
 * Run: pnpm build && pnpm bench:informer:real [-- --unpaged]
 * BENCH_CHILD_FLAGS="--cpu-prof --cpu-prof-dir=DIR" passes Node flags to each sync's process (diagnostics).
 */
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startRealApiserver } from "../real-apiserver/start.js";
import { percentile } from "./stats.js";

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const NAMESPACE = "bench";
const ALL_VARIANTS = ["json", "protobuf", "json-unpaged", "protobuf-unpaged"] as const;
/** With --unpaged, each encoding also lists in one response (pageSize 0). */
const ENCODINGS = process.argv.includes("--unpaged") ? ALL_VARIANTS : ALL_VARIANTS.slice(0, 2);
type Encoding = (typeof ALL_VARIANTS)[number];

interface SyncResult {
  readonly objects: number;
  readonly syncMs: number;
  readonly cpuMs: number;
}

/** CPU time (user + system) of a process so far, in ms; clock ticks are 10 ms on Linux. */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The child: waits for "go", syncs one informer, reports. */
async function child(kubeconfigPath: string, encoding: Encoding): Promise<void> {
  const { Informer } = await import("@kubesdk/informer");
  const { Kube } = await import("@kubesdk/client");
  const { protobufCodec } = await import("@kubesdk/client/protobuf");
  const { loadClusterConnection } = await import("@kubesdk/transport");
  const kube = Kube.fromConnection(await loadClusterConnection({ path: kubeconfigPath, inCluster: false }), {
    protobufCodec,
  });
  const informer = new Informer(kube.resource("v1", "ConfigMap"), {
    namespace: NAMESPACE,
    encoding: encoding.startsWith("json") ? "json" : "protobuf",
    ...(encoding.endsWith("-unpaged") ? { pageSize: 0 } : {}),
  });
  const go = new Promise<void>((resolve) => process.once("message", () => resolve()));
  process.send?.("ready");
  await go;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  informer.start();
  await informer.waitForSync();
  const cpu = process.cpuUsage(c0);
  const result: SyncResult = {
    objects: informer.store.size,
    syncMs: performance.now() - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
  await informer.stop();
  await kube.transport.close();
  process.send?.(result, () => process.exit(0));
}

function configMap(i: number) {
  const name = `cm-${String(i).padStart(6, "0")}`;
  const data: Record<string, string> = {};
  for (let k = 0; k < 8; k++)
    data[`key-${k}`] = `${name}-${k}-`.padEnd(100, String.fromCharCode(97 + ((i + k) % 26)));
  return {
    apiVersion: "v1" as const,
    kind: "ConfigMap" as const,
    metadata: { name, namespace: NAMESPACE, labels: { app: "bench" } },
    data,
  };
}

async function seed(kubeconfigPath: string): Promise<void> {
  const { Kube } = await import("@kubesdk/client");
  const { loadClusterConnection } = await import("@kubesdk/transport");
  const kube = Kube.fromConnection(await loadClusterConnection({ path: kubeconfigPath, inCluster: false }));
  await kube
    .resource("v1", "Namespace")
    .create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NAMESPACE } });
  const configMaps = kube.resource("v1", "ConfigMap");
  for (let i = 0; i < OBJECTS; i += 50) {
    const batch = Array.from({ length: Math.min(50, OBJECTS - i) }, (_, j) => configMap(i + j));
    await Promise.all(batch.map((cm) => configMaps.create(cm, { namespace: NAMESPACE })));
  }
  await kube.transport.close();
}

/** One sync in a fresh process, with the servers' CPU time taken around it. */
async function measure(kubeconfigPath: string, encoding: Encoding, pids: readonly number[]) {
  const execArgv = [
    ...process.execArgv.filter((a) => a !== "--conditions=source"),
    ...(process.env.BENCH_CHILD_FLAGS ?? "").split(" ").filter((f) => f !== ""),
  ];
  const proc = fork(fileURLToPath(import.meta.url), ["--child", kubeconfigPath, encoding], { execArgv });
  const messages: unknown[] = [];
  let wake = () => {};
  proc.on("message", (m) => {
    messages.push(m);
    wake();
  });
  const exited = new Promise<never>((_, reject) =>
    proc.once("exit", (code) => reject(new Error(`the ${encoding} sync exited with ${code}`))),
  );
  const next = () => Promise.race([new Promise<void>((r) => (wake = r)), exited]);
  // The child loads its modules, then says "ready"; the servers' CPU is read just before "go".
  while (messages.length === 0) await next();
  const before = pids.map(cpuMsOf);
  proc.send("go");
  while (messages.length < 2) await next();
  const result = messages[1] as SyncResult;
  const after = pids.map(cpuMsOf);
  return { ...result, serverCpuMs: after.map((a, i) => a - (before[i] ?? 0)) };
}

async function main(): Promise<void> {
  const server = await startRealApiserver({});
  try {
    const pids = [server.pids.apiserver, server.pids.etcd].filter((p): p is number => p !== undefined);
    if (pids.length !== 2) throw new Error("the apiserver's or etcd's process id is unknown");
    const t0 = performance.now();
    await seed(server.kubeconfigPath);
    console.log(`${OBJECTS} ConfigMaps created in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const runs = new Map<Encoding, Awaited<ReturnType<typeof measure>>[]>(ENCODINGS.map((e) => [e, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ENCODINGS : [...ENCODINGS].reverse();
      for (const encoding of order) {
        const r = await measure(server.kubeconfigPath, encoding, pids);
        if (r.objects !== OBJECTS) throw new Error(`${encoding}: synced ${r.objects} of ${OBJECTS} objects`);
        runs.get(encoding)?.push(r);
      }
    }
    const median = (xs: number[]) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      );
    const table = ENCODINGS.map((e) => {
      const rs = runs.get(e) ?? [];
      return {
        encoding: e,
        syncMs: median(rs.map((r) => r.syncMs)),
        clientCpuMs: median(rs.map((r) => r.cpuMs)),
        apiserverCpuMs: median(rs.map((r) => r.serverCpuMs[0] ?? 0)),
        etcdCpuMs: median(rs.map((r) => r.serverCpuMs[1] ?? 0)),
      };
    });
    console.log(
      `\n${OBJECTS} ConfigMaps from kube-apiserver (watch cache on); medians of ${ROUNDS} rounds\n`,
    );
    console.log("variant            sync ms  client CPU ms  apiserver CPU ms  etcd CPU ms");
    for (const r of table)
      console.log(
        `${r.encoding.padEnd(17)}${r.syncMs.toFixed(0).padStart(9)}${r.clientCpuMs.toFixed(0).padStart(15)}${r.apiserverCpuMs.toFixed(0).padStart(18)}${r.etcdCpuMs.toFixed(0).padStart(13)}`,
      );
    const [json, pb] = table;
    if (json !== undefined && pb !== undefined)
      console.log(
        `\nprotobuf / JSON: sync ${(pb.syncMs / json.syncMs).toFixed(2)}×, client CPU ${(pb.clientCpuMs / json.clientCpuMs).toFixed(2)}×, apiserver CPU ${(pb.apiserverCpuMs / json.apiserverCpuMs).toFixed(2)}×`,
      );
    for (const e of ["json", "protobuf"]) {
      const paged = table.find((r) => r.encoding === e);
      const whole = table.find((r) => r.encoding === `${e}-unpaged`);
      if (paged !== undefined && whole !== undefined)
        console.log(
          `${e} paged / unpaged: sync ${(paged.syncMs / whole.syncMs).toFixed(2)}×, client CPU ${(paged.clientCpuMs / whole.clientCpuMs).toFixed(2)}×, apiserver CPU ${(paged.apiserverCpuMs / whole.apiserverCpuMs).toFixed(2)}×`,
        );
    }
  } finally {
    await server.stop();
  }
}

if (process.argv[2] === "--child") await child(process.argv[3] as string, process.argv[4] as Encoding);
else await main();
