/**
 * Informer benchmark: initial sync of BENCH_OBJECTS (default 50 000) ConfigMaps of ~1 KiB from the
 * reference server, which runs in its own process (seeded straight into its store), by
 *   - the raw limit              one undici request + JSON.parse + a Map keyed by namespace/name
 *   - @kubesdk/informer          Informer, defaults (LIST pages of 500, then a watch)
 *   - @kubesdk/informer unpaged  the same with pageSize 0 (one LIST), to separate paging from the rest
 *   - @kubernetes/client-node    makeInformer over its ListWatch (one unpaged LIST, then a watch)
 * Each contender runs in a fresh child process per round, so none shares a heap with another or
 * with the server: peak RSS is that child's getrusage maxRSS, read once synced (the baseline is the
 * same figure after imports, before the sync). Time to synced: kubesdk `waitForSync()`, client-node
 * `start()` resolving (list applied, watch requested), raw: the Map filled.
 * Then, kubesdk only: delivery is paused, 1% of the objects change, the server restarts (history
 * compacted) and resumes: the informer relists; events must equal the changed count exactly.
 * Prints medians over BENCH_ROUNDS (default 3) and the ratios against the goals. No assertions.
 *
 * Run: node --expose-gc --conditions=source --import tsx scripts/bench/informer-bench.ts
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import { gc, percentile } from "./stats.js";

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const NAMESPACE = "bench";
const PATH = `/api/v1/namespaces/${NAMESPACE}/configmaps`;
// "kubesdk-unpaged" (pageSize 0: one LIST, as client-node and raw do) separates the cost of
// paging (100 sequential round trips the server answers one by one) from the informer's own.
const CONTENDERS = ["raw", "kubesdk", "kubesdk-unpaged", "client-node"] as const;
type Contender = (typeof CONTENDERS)[number];

interface SyncResult {
  readonly contender: Contender;
  readonly objects: number;
  readonly syncMs: number;
  readonly baselineRssKiB: number;
  readonly peakRssKiB: number;
  readonly relist?: {
    readonly changed: number;
    readonly events: number;
    readonly ms: number;
    readonly backoffMs: number;
    readonly listMs: number;
    readonly path: string;
  };
}

type ConfigMap = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; [k: string]: unknown };
  data: Record<string, string>;
  [k: string]: unknown;
};

type ServerRequest = { readonly op: "gap"; readonly every: number };
type ServerReply = { readonly op: "gap-done"; readonly changed: number };

/** ~1 KiB: a few labels and eight data entries of 100 characters. */
function configMap(i: number): ConfigMap {
  const name = `cm-${String(i).padStart(6, "0")}`;
  const data: Record<string, string> = {};
  for (let k = 0; k < 8; k++)
    data[`key-${k}`] = `${name}-${k}-`.padEnd(100, String.fromCharCode(97 + ((i + k) % 26)));
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name,
      namespace: NAMESPACE,
      uid: randomUUID(),
      creationTimestamp: "2026-01-01T00:00:00Z",
      labels: { app: "bench", shard: String(i % 32) },
    },
    data,
  };
}

// ---- the server child ----

async function serve(): Promise<void> {
  const { startServer } = await import("@kubesdk/server");
  const kubeconfigPath = join(mkdtempSync(join(tmpdir(), "kubesdk-bench-")), "kubeconfig");
  const server = await startServer({
    kubeconfigPath,
    seed: [{ apiVersion: "v1", kind: "Namespace", metadata: { name: NAMESPACE } }],
  });
  const bucket = server.resources.find("", "v1", "configmaps")?.bucket;
  if (bucket === undefined) throw new Error("the reference server serves no configmaps");
  // Straight into the store: tens of thousands per second, no HTTP.
  for (let i = 0; i < OBJECTS; i++)
    server.store.create(bucket, `${NAMESPACE}/cm-${String(i).padStart(6, "0")}`, configMap(i));
  process.on("message", (m: ServerRequest) => {
    if (m.op !== "gap") return;
    // The watchers miss these writes, then history is gone: only a relist can catch up.
    server.faults.pauseDelivery();
    let changed = 0;
    for (let i = 0; i < OBJECTS; i += m.every) {
      const key = `${NAMESPACE}/cm-${String(i).padStart(6, "0")}`;
      const current = server.store.get(bucket, key) as unknown as ConfigMap;
      server.store.update(bucket, key, { ...current, data: { ...current.data, "key-0": "changed" } });
      changed++;
    }
    server.faults.restart();
    server.faults.resumeDelivery();
    process.send?.({ op: "gap-done", changed } satisfies ServerReply);
  });
  process.send?.({ kubeconfigPath });
}

// ---- a contender child ----

function maxRssKiB(): number {
  return process.resourceUsage().maxRSS;
}

async function runRaw(kubeconfigPath: string): Promise<SyncResult> {
  const { Agent, request } = await import("undici");
  const kc = YAML.parse(readFileSync(kubeconfigPath, "utf8"));
  const ca = Buffer.from(kc.clusters[0].cluster["certificate-authority-data"], "base64").toString();
  const agent = new Agent({ connect: { ca } });
  gc();
  const baselineRssKiB = maxRssKiB();
  const t0 = performance.now();
  const res = await request(kc.clusters[0].cluster.server + PATH, {
    headers: { authorization: `Bearer ${kc.users[0].user.token}`, accept: "application/json" },
    dispatcher: agent,
  });
  const list = JSON.parse(await res.body.text()) as {
    items: { metadata: { namespace: string; name: string } }[];
  };
  const byKey = new Map<string, unknown>();
  for (const o of list.items) byKey.set(`${o.metadata.namespace}/${o.metadata.name}`, o);
  const syncMs = performance.now() - t0;
  const peakRssKiB = maxRssKiB();
  await agent.close();
  return { contender: "raw", objects: byKey.size, syncMs, baselineRssKiB, peakRssKiB };
}

async function runClientNode(kubeconfigPath: string): Promise<SyncResult> {
  const k8s = await import("@kubernetes/client-node");
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const informer = k8s.makeInformer(kc, PATH, () => core.listNamespacedConfigMap({ namespace: NAMESPACE }));
  gc();
  const baselineRssKiB = maxRssKiB();
  const t0 = performance.now();
  await informer.start();
  const syncMs = performance.now() - t0;
  const peakRssKiB = maxRssKiB();
  const objects = informer.list().length;
  await informer.stop();
  return { contender: "client-node", objects, syncMs, baselineRssKiB, peakRssKiB };
}

async function runKubesdk(
  kubeconfigPath: string,
  pageSize: number | undefined,
  askForGap: (() => Promise<number>) | undefined,
): Promise<SyncResult> {
  const { Informer } = await import("@kubesdk/informer");
  const { Kube } = await import("@kubesdk/client");
  const { loadClusterConnection } = await import("@kubesdk/transport");
  // JSON, as the raw limit and client-node read it (chosen, though a client without a codec is JSON anyway).
  const kube = Kube.fromConnection(await loadClusterConnection({ path: kubeconfigPath, inCluster: false }), {
    protobuf: false,
  });
  const { transport } = kube;
  const informer = new Informer(kube.resource("v1", "ConfigMap"), {
    namespace: NAMESPACE,
    ...(pageSize === undefined ? {} : { pageSize }),
  });
  let events = 0;
  informer.addEventHandler({
    add: () => {
      events++;
    },
    update: () => {
      events++;
    },
    delete: () => {
      events++;
    },
  });
  gc();
  const baselineRssKiB = maxRssKiB();
  const t0 = performance.now();
  informer.start();
  await informer.waitForSync();
  const syncMs = performance.now() - t0;
  const peakRssKiB = maxRssKiB();
  const objects = informer.store.size;
  const contender = pageSize === 0 ? "kubesdk-unpaged" : "kubesdk";
  if (askForGap === undefined) {
    await informer.stop();
    await transport.close();
    return { contender, objects, syncMs, baselineRssKiB, peakRssKiB };
  }

  // Relist after a gap: from the moment the server has restarted until every event is handled.
  events = 0;
  // Where the relist time goes: waiting out backoffs, and the LIST itself.
  let backoffMs = 0;
  let listMs = 0;
  const path: string[] = [];
  informer.on("watchEnd", (w) => path.push(`watch ${w.reason}`));
  informer.on("backoff", (b) => {
    backoffMs += b.delayMs;
    path.push(`backoff ${b.delayMs.toFixed(0)} ms`);
  });
  informer.on("relist", (r) => path.push(`relist ${r.reason}`));
  informer.on("listDone", (l) => {
    listMs += l.durationMs;
    path.push(`list ${l.durationMs.toFixed(0)} ms`);
  });
  const replaced = new Promise<void>((resolve) => informer.once("replace", (r) => !r.initial && resolve()));
  const changed = await askForGap();
  const r0 = performance.now();
  await replaced;
  while (events < changed) await new Promise((r) => setImmediate(r));
  const ms = performance.now() - r0;
  // Anything beyond the changed objects would arrive right behind them: give it a moment to show.
  await new Promise((r) => setTimeout(r, 1000));
  await informer.stop();
  await transport.close();
  return {
    contender,
    objects,
    syncMs,
    baselineRssKiB,
    peakRssKiB,
    relist: { changed, events, ms, backoffMs, listMs, path: path.join(" → ") },
  };
}

async function contend(which: Contender, kubeconfigPath: string): Promise<void> {
  const askForGap = () =>
    new Promise<number>((resolve) => {
      process.once("message", (m: ServerReply) => resolve(m.changed));
      process.send?.({ op: "gap", every: 100 } satisfies ServerRequest);
    });
  const result =
    which === "raw"
      ? await runRaw(kubeconfigPath)
      : which === "client-node"
        ? await runClientNode(kubeconfigPath)
        : which === "kubesdk-unpaged"
          ? await runKubesdk(kubeconfigPath, 0, undefined)
          : await runKubesdk(kubeconfigPath, undefined, askForGap);
  process.send?.({ result });
  process.disconnect();
}

// ---- the parent ----

const self = fileURLToPath(import.meta.url);

function startServerChild(): Promise<{ child: ChildProcess; kubeconfigPath: string }> {
  const child = fork(self, ["--serve"], { stdio: "inherit" });
  return new Promise((resolve, reject) => {
    child.once("message", (m) =>
      resolve({ child, kubeconfigPath: (m as { kubeconfigPath: string }).kubeconfigPath }),
    );
    child.once("exit", (code) => reject(new Error(`server process exited with ${code}`)));
  });
}

function runContender(which: Contender, kubeconfigPath: string, server: ChildProcess): Promise<SyncResult> {
  const child = fork(self, [`--contender=${which}`, kubeconfigPath], { stdio: "inherit" });
  return new Promise((resolve, reject) => {
    child.on("message", (m: { result?: SyncResult; op?: string }) => {
      if (m.result !== undefined) resolve(m.result);
      else if (m.op === "gap") {
        server.once("message", (reply) => child.send(reply as ServerReply));
        server.send(m);
      }
    });
    child.once("exit", (code) => code !== 0 && reject(new Error(`${which} process exited with ${code}`)));
  });
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const mibOf = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

async function main(): Promise<void> {
  const { child: server, kubeconfigPath } = await startServerChild();
  try {
    const results = new Map<Contender, SyncResult[]>(CONTENDERS.map((c) => [c, []]));
    // Rounds interleave the contenders so drift hits them alike; the first round warms the server.
    await runContender("raw", kubeconfigPath, server);
    for (let round = 0; round < ROUNDS; round++)
      for (const c of CONTENDERS) results.get(c)?.push(await runContender(c, kubeconfigPath, server));

    const summary = (c: Contender) => {
      const rs = results.get(c) ?? [];
      return {
        objects: rs[0]?.objects ?? 0,
        syncMs: median(rs.map((r) => r.syncMs)),
        baseline: median(rs.map((r) => r.baselineRssKiB)),
        peak: median(rs.map((r) => r.peakRssKiB)),
      };
    };
    const raw = summary("raw");
    const node = summary("client-node");
    console.log(
      `\nInitial sync of ${OBJECTS} ConfigMaps (~1 KiB), median of ${ROUNDS} rounds, one process per run\n`,
    );
    console.log(
      "contender".padEnd(26) +
        "objects".padStart(9) +
        "sync ms".padStart(10) +
        "× raw".padStart(8) +
        "base RSS".padStart(10) +
        "peak RSS".padStart(10) +
        "× client-node".padStart(15),
    );
    for (const c of CONTENDERS) {
      const s = summary(c);
      console.log(
        c.padEnd(26) +
          String(s.objects).padStart(9) +
          s.syncMs.toFixed(0).padStart(10) +
          (s.syncMs / raw.syncMs).toFixed(2).padStart(8) +
          mibOf(s.baseline).padStart(10) +
          mibOf(s.peak).padStart(10) +
          (s.peak / node.peak).toFixed(2).padStart(15),
      );
    }
    const k = summary("kubesdk");
    console.log(`\ngoal: kubesdk sync ≤ 1.15× raw           → ${(k.syncMs / raw.syncMs).toFixed(2)}×`);
    console.log(`goal: kubesdk peak RSS ≤ 0.6× client-node → ${(k.peak / node.peak).toFixed(2)}×`);
    const relists = (results.get("kubesdk") ?? []).flatMap((r) => (r.relist ? [r.relist] : []));
    for (const r of relists)
      console.log(
        `relist after compaction: ${r.changed} changed → ${r.events} events (${r.events === r.changed ? "exact" : "MISMATCH"}), ${r.ms.toFixed(0)} ms from restart to all handled (${r.backoffMs.toFixed(0)} ms backoff, ${r.listMs.toFixed(0)} ms list: ${r.path})`,
      );
    console.log(
      "kubesdk pages the initial list (500 per page, a consistent snapshot); raw and client-node do not.",
    );
  } finally {
    server.kill();
  }
}

const role = process.argv[2] ?? "";
if (role === "--serve") await serve();
else if (role.startsWith("--contender="))
  await contend(role.slice("--contender=".length) as Contender, process.argv[3] as string);
else await main();
