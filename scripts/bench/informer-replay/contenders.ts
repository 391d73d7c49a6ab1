/**
 * The contenders, each run in its own child process: an initial sync of the replayed collection,
 * then the replayed watch stream delivered into a handler. Every contender times the same span:
 * sync from its first request to "synced" (raw: the Map filled; kubesdk: waitForSync(), which also
 * waits for the handler to have received every add; client-node: start() resolving), and the watch
 * from synced to the handler having received the last event.
 */
import { StringDecoder } from "node:string_decoder";
import { gc } from "../stats.js";
import { LIST_PATH, NAMESPACE } from "./fixtures.js";
import { startPhase, stopPhase } from "./phase-profile.js";

export const CONTENDERS = [
  "raw",
  "kubesdk",
  "kubesdk-unpaged",
  "kubesdk-stream",
  "kubesdk-protobuf",
  "kubesdk-protobuf-stream",
  "kubesdk-protobuf-unpaged",
  "client-node",
] as const;
export type Contender = (typeof CONTENDERS)[number];

export interface RunResult {
  readonly contender: Contender;
  readonly objects: number;
  readonly syncMs: number;
  /** User + system CPU time of the sync, in ms. */
  readonly syncCpuMs: number;
  readonly baselineRssKiB: number;
  readonly syncPeakRssKiB: number;
  readonly events: number;
  readonly watchMs: number;
  /** User + system CPU time during the watch phase, in microseconds. */
  readonly watchCpuUs: number;
}

export interface RunInput {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly objects: number;
  readonly events: number;
}

interface Timed {
  readonly objects: number;
  readonly syncMs: number;
  readonly syncCpuMs: number;
  readonly syncPeakRssKiB: number;
  readonly watchMs: number;
  readonly watchCpuUs: number;
  readonly events: number;
}

const maxRssKiB = () => process.resourceUsage().maxRSS;
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** Tells the replay server to hold (arm) or send (go) the watch events. */
async function gate(input: RunInput, what: "arm" | "go"): Promise<void> {
  const res = await fetch(`${input.url}/${what}`, { method: "POST" });
  await res.arrayBuffer();
}

/** Resolves once `count()` reaches `target` (checked on every handler call via `poke`). */
function counter(target: number): { hit: () => void; done: Promise<void>; readonly n: number } {
  let n = 0;
  let resolve: () => void = () => {};
  const done = new Promise<void>((r) => {
    resolve = r;
  });
  if (target === 0) resolve();
  return {
    hit: () => {
      if (++n === target) resolve();
    },
    done,
    get n() {
      return n;
    },
  };
}

type Counter = ReturnType<typeof counter>;

/**
 * Times an informer's sync (`sync`, after arming the replay server), then its watch phase: from the
 * "go" gate until the handler has seen every event.
 */
async function syncThenWatch(input: RunInput, name: string, seen: Counter, sync: () => Promise<void>) {
  await gate(input, "arm");
  await startPhase("sync");
  const t0 = performance.now();
  const s0 = cpuUs();
  await sync();
  const syncMs = performance.now() - t0;
  const syncCpuMs = (cpuUs() - s0) / 1000;
  const syncPeakRssKiB = maxRssKiB();
  await stopPhase("sync", name);
  await startPhase("watch");
  const w0 = performance.now();
  const c0 = cpuUs();
  await gate(input, "go");
  await seen.done;
  const watchMs = performance.now() - w0;
  const watchCpuUs = cpuUs() - c0;
  await stopPhase("watch", name);
  return { syncMs, syncCpuMs, syncPeakRssKiB, watchMs, watchCpuUs, events: seen.n };
}

async function runRaw(input: RunInput): Promise<Timed> {
  const { Agent, request } = await import("undici");
  const agent = new Agent();
  // Armed before the timed spans, as the other contenders do (and fetch() is loaded by then).
  await gate(input, "arm");
  await startPhase("sync");
  const t0 = performance.now();
  const s0 = cpuUs();
  const res = await request(input.url + LIST_PATH, {
    headers: { accept: "application/json" },
    dispatcher: agent,
  });
  const list = JSON.parse(await res.body.text()) as { items: Obj[] };
  const byKey = new Map<string, Obj>();
  for (const o of list.items) byKey.set(`${o.metadata.namespace}/${o.metadata.name}`, o);
  const syncMs = performance.now() - t0;
  const syncCpuMs = (cpuUs() - s0) / 1000;
  const syncPeakRssKiB = maxRssKiB();
  await stopPhase("sync", "raw");
  const seen = counter(input.events);
  const handler = (_old: Obj | undefined, _new: Obj) => seen.hit();
  await startPhase("watch");
  const w0 = performance.now();
  const c0 = cpuUs();
  const watch = await request(`${input.url}${LIST_PATH}?watch=true`, {
    headers: { accept: "application/json" },
    dispatcher: agent,
  });
  await gate(input, "go");
  onLines(watch.body, (line) => {
    const e = JSON.parse(line) as { object: Obj };
    const key = `${e.object.metadata.namespace}/${e.object.metadata.name}`;
    const old = byKey.get(key);
    byKey.set(key, e.object);
    handler(old, e.object);
  });
  await seen.done;
  watch.body.destroy();
  const watchMs = performance.now() - w0;
  const watchCpuUs = cpuUs() - c0;
  await stopPhase("watch", "raw");
  await agent.destroy();
  return { objects: byKey.size, syncMs, syncCpuMs, syncPeakRssKiB, watchMs, watchCpuUs, events: seen.n };
}

type Obj = { metadata: { namespace: string; name: string } };

/**
 * Splits a body into lines the cheapest correct way: each chunk is decoded once (a StringDecoder
 * keeps a character cut between chunks whole) and every line is a slice of that text.
 */
function onLines(body: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  const decoder = new StringDecoder("utf8");
  let rest = "";
  body.on("data", (chunk: Buffer) => {
    const text = rest + decoder.write(chunk);
    let start = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
      onLine(text.slice(start, nl));
      start = nl + 1;
    }
    rest = text.slice(start);
  });
}

async function runKubesdk(input: RunInput, which: Contender): Promise<Timed> {
  const { Informer } = await import("@kubesdk/informer");
  const { Kube } = await import("@kubesdk/client");
  const { protobufCodec } = await import("@kubesdk/client/protobuf");
  const { loadClusterConnection } = await import("@kubesdk/transport");
  const kube = Kube.fromConnection(
    await loadClusterConnection({ path: input.kubeconfigPath, inCluster: false }),
    {
      // Chosen either way: JSON contenders must not get the informer's default (protobuf).
      protobuf: which.startsWith("kubesdk-protobuf"),
      protobufCodec,
    },
  );
  const informer = new Informer(kube.resource("v1", "ConfigMap"), {
    namespace: NAMESPACE,
    ...(which.endsWith("unpaged") ? { pageSize: 0 } : {}),
    ...(which.endsWith("stream") ? { initialList: "stream" as const } : {}),
  });
  const seen = counter(input.events);
  informer.addEventHandler({ update: () => seen.hit() });
  const timed = await syncThenWatch(input, which, seen, async () => {
    informer.start();
    await informer.waitForSync();
  });
  const objects = informer.store.size;
  await informer.stop();
  await kube.transport.close();
  return { objects, ...timed };
}

async function runClientNode(input: RunInput): Promise<Timed> {
  const k8s = await import("@kubernetes/client-node");
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(input.kubeconfigPath);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const informer = k8s.makeInformer(kc, LIST_PATH, () =>
    core.listNamespacedConfigMap({ namespace: NAMESPACE }),
  );
  const seen = counter(input.events);
  informer.on("update", () => seen.hit());
  informer.on("error", () => {});
  const timed = await syncThenWatch(input, "client-node", seen, () => informer.start());
  const objects = informer.list().length;
  await informer.stop();
  return { objects, ...timed };
}

/** Loads a contender's modules before the baseline, so the baseline includes the code. */
async function preload(which: Contender): Promise<void> {
  if (which === "raw") await import("undici");
  else if (which === "client-node") await import("@kubernetes/client-node");
  else
    await Promise.all([import("@kubesdk/informer"), import("@kubesdk/client"), import("@kubesdk/transport")]);
}

export async function runContender(which: Contender, input: RunInput): Promise<RunResult> {
  await preload(which);
  gc();
  const baselineRssKiB = maxRssKiB();
  const timed =
    which === "raw"
      ? await runRaw(input)
      : which === "client-node"
        ? await runClientNode(input)
        : await runKubesdk(input, which);
  return { contender: which, baselineRssKiB, ...timed };
}
