/**
 * Many informers over HTTP/1.1 and over HTTP/2 against a real kube-apiserver: does offering h2
 * (`TransportOptions.http2`) pay? BENCH_INFORMERS namespaces (default 100) hold BENCH_OBJECTS
 * ConfigMaps each (default 20); each round starts one informer per namespace on one transport in a
 * fresh child process, once per protocol in alternating order, and reports: TCP connections opened,
 * time until every informer synced, the child's RSS and heap after sync (after a GC), and the time
 * until every informer saw one new ConfigMap created in its namespace. Medians of BENCH_ROUNDS
 * (default 3).
 *
 * Run: pnpm bench:http2
 */
import { fork } from "node:child_process";
import type { TLSSocket } from "node:tls";
import { fileURLToPath } from "node:url";
import { Agent, buildConnector } from "undici";
import { startRealApiserver } from "../real-apiserver/start.js";
import { percentile } from "./stats.js";

const INFORMERS = Number(process.env.BENCH_INFORMERS ?? 100);
const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PROTOCOLS = ["http1.1", "h2"] as const;
type Protocol = (typeof PROTOCOLS)[number];

interface RoundResult {
  readonly connections: number;
  readonly negotiated: string;
  readonly syncMs: number;
  readonly rssMiB: number;
  readonly heapMiB: number;
  readonly deliveryMs: number;
}

const namespaceOf = (i: number) => `h2-bench-${String(i).padStart(3, "0")}`;

/** The child: one transport, an informer per namespace; reports what it took. */
async function child(kubeconfigPath: string, protocol: Protocol): Promise<void> {
  const { Informer } = await import("@kubesdk/informer");
  const { Kube } = await import("@kubesdk/client");
  const { loadClusterConnection } = await import("@kubesdk/transport");
  const negotiated: (string | false)[] = [];
  const kube = Kube.fromConnection(await loadClusterConnection({ path: kubeconfigPath, inCluster: false }), {
    transport: {
      http2: protocol === "h2",
      // The transport's settings, with each new connection's negotiated protocol noted.
      dispatcherFactory: (settings) => {
        const connector = buildConnector({
          rejectUnauthorized: settings.tls.rejectUnauthorized,
          ...(settings.tls.ca !== undefined ? { ca: settings.tls.ca } : {}),
          ...(settings.http2 ? { allowH2: true } : {}),
        });
        return new Agent({
          ...(settings.http2 ? { allowH2: true } : {}),
          connect: (options, callback) =>
            connector(options, (error, socket) => {
              if (socket !== null) negotiated.push((socket as TLSSocket).alpnProtocol ?? false);
              callback(error, socket as never);
            }),
        });
      },
    },
  });
  const configMaps = kube.resource("v1", "ConfigMap");
  const informers = Array.from(
    { length: INFORMERS },
    (_, i) => new Informer(configMaps, { namespace: namespaceOf(i) }),
  );
  const t0 = performance.now();
  for (const informer of informers) informer.start();
  await Promise.all(informers.map((i) => i.waitForSync()));
  const syncMs = performance.now() - t0;
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  let seen = 0;
  let allSeen = () => {};
  const delivered = new Promise<void>((resolve) => {
    allSeen = resolve;
  });
  for (const informer of informers)
    informer.addEventHandler({
      add: (cm) => {
        if (cm.metadata?.name === "late" && ++seen === INFORMERS) allSeen();
      },
    });
  const t1 = performance.now();
  await Promise.all(
    informers.map((_, i) => configMaps.create({ metadata: { name: "late" } }, { namespace: namespaceOf(i) })),
  );
  await delivered;
  const deliveryMs = performance.now() - t1;
  await Promise.all(informers.map((_, i) => configMaps.delete("late", { namespace: namespaceOf(i) })));
  await Promise.all(informers.map((i) => i.stop()));
  await kube.close();
  const result: RoundResult = {
    connections: negotiated.length,
    negotiated: [...new Set(negotiated.map(String))].join(","),
    syncMs,
    rssMiB: memory.rss / 2 ** 20,
    heapMiB: memory.heapUsed / 2 ** 20,
    deliveryMs,
  };
  process.send?.(result, () => process.exit(0));
}

async function seed(kubeconfigPath: string): Promise<void> {
  const { Kube } = await import("@kubesdk/client");
  const { loadClusterConnection } = await import("@kubesdk/transport");
  const kube = Kube.fromConnection(await loadClusterConnection({ path: kubeconfigPath, inCluster: false }));
  for (let i = 0; i < INFORMERS; i++) {
    const namespace = namespaceOf(i);
    await kube.resource("v1", "Namespace").create({ metadata: { name: namespace } });
    await Promise.all(
      Array.from({ length: OBJECTS }, (_, k) =>
        kube
          .resource("v1", "ConfigMap")
          .create({ metadata: { name: `cm-${k}` }, data: { k: String(k) } }, { namespace }),
      ),
    );
  }
  await kube.close();
}

function round(kubeconfigPath: string, protocol: Protocol): Promise<RoundResult> {
  const execArgv = process.execArgv.filter((a) => a !== "--conditions=source");
  const proc = fork(fileURLToPath(import.meta.url), ["--child", kubeconfigPath, protocol], {
    execArgv: [...execArgv, "--expose-gc"],
  });
  return new Promise((resolve, reject) => {
    proc.once("message", (m) => resolve(m as RoundResult));
    proc.once("exit", (code) => reject(new Error(`the ${protocol} round exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const server = await startRealApiserver({});
  try {
    await seed(server.kubeconfigPath);
    const runs = new Map<Protocol, RoundResult[]>(PROTOCOLS.map((p) => [p, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const protocol of r % 2 === 0 ? PROTOCOLS : [...PROTOCOLS].reverse())
        runs.get(protocol)?.push(await round(server.kubeconfigPath, protocol));
    }
    console.log(`${INFORMERS} informers × ${OBJECTS} ConfigMaps, medians of ${ROUNDS} rounds`);
    console.log("protocol  negotiated  connections  sync ms  RSS MiB  heap MiB  delivery ms");
    for (const [protocol, results] of runs) {
      const median = (f: (r: RoundResult) => number) =>
        percentile(
          results.map(f).sort((a, b) => a - b),
          50,
        ).toFixed(0);
      console.log(
        `${protocol.padEnd(10)}${(results[0]?.negotiated ?? "").padEnd(12)}${median((r) => r.connections).padStart(11)}` +
          `${median((r) => r.syncMs).padStart(9)}${median((r) => r.rssMiB).padStart(9)}` +
          `${median((r) => r.heapMiB).padStart(10)}${median((r) => r.deliveryMs).padStart(13)}`,
      );
    }
  } finally {
    await server.stop();
  }
}

if (process.argv[2] === "--child") await child(process.argv[3] as string, process.argv[4] as Protocol);
else await main();
