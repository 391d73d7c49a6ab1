/**
 * Soak: the reference server under a bounded mixed load for --minutes (default 10): writers
 * creating, updating and deleting ConfigMaps, watchers keeping a view of them (resuming after
 * drops, relisting after 410), the server's fault controls fired every few seconds (failed
 * requests, dropped/stalled/broken watches, compaction, paused delivery, latency) and malformed
 * requests from the fuzz generator. Every 30 s it prints RSS and heap; at the end it reports lost
 * writes (an acknowledged write the store never committed, or a final object that is not the last
 * acknowledged one) and lost events (a watcher's view that differs from the store).
 *
 *   pnpm bench:soak [--minutes 10] [--seed N]
 */
import { startServer } from "@kubesdk/server";
import { Agent } from "undici";
import { fuzzRequest, rng } from "../../test/support/fuzz-requests.js";
import { type SoakClient, Watcher } from "./soak-watcher.js";
import { mib } from "./stats.js";

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const MINUTES = arg("minutes", 10);
const SEED = arg("seed", Math.floor(Math.random() * 2 ** 31));
const NS = "soak";
const BAD_NS = "soak-bad";
const WRITERS = 4;
const WATCHERS = 3;
const NAMES_PER_WRITER = 50;

const server = await startServer({ cluster: false });
const agent = new Agent({ connect: { ca: server.ca }, connections: 32 });
const client: SoakClient = { url: server.url, token: server.token, agent };
const cmBucket = server.resources.find("", "v1", "configmaps")?.bucket ?? "";

/** One request; a dropped connection (an injected reset) answers status 0. */
async function call(
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
) {
  const res = await agent
    .request({
      origin: server.url,
      path,
      method: method as "GET",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json", ...headers },
      body,
    })
    .catch(() => undefined);
  if (!res) return { status: 0, text: "" };
  const text = await res.body.text().catch(() => "");
  return { status: text === "" && res.statusCode < 300 ? 0 : res.statusCode, text };
}

/** Revisions the store committed in the soak namespace (to check acknowledged writes against). */
const committed = new Set<number>();
server.store.subscribe((e) => {
  if (e.bucket === cmBucket && e.key.startsWith(`${NS}/`)) committed.add(e.rev);
});

const stats = {
  writes: 0,
  failedWrites: 0,
  lostWrites: [] as string[],
  bad: 0,
  badStatus: new Map<number, number>(),
};
/** What each writer last had acknowledged per name: its resourceVersion, or null once deleted. */
const expected = new Map<string, string | null>();
let running = true;

async function resync(name: string): Promise<void> {
  const res = await call("GET", `/api/v1/namespaces/${NS}/configmaps/${name}`);
  if (res.status === 200) expected.set(name, JSON.parse(res.text).metadata.resourceVersion);
  else if (res.status === 404) expected.set(name, null);
  else expected.delete(name);
}

async function writer(id: number): Promise<void> {
  const r = rng(SEED + id);
  while (running) {
    const name = `w${id}-${Math.floor(r() * NAMES_PER_WRITER)}`;
    const exists = (expected.get(name) ?? null) !== null;
    const roll = r();
    const body = JSON.stringify({ metadata: { name }, data: { n: String(roll) } });
    const res = !exists
      ? await call("POST", `/api/v1/namespaces/${NS}/configmaps`, body)
      : roll < 0.75
        ? await call("PUT", `/api/v1/namespaces/${NS}/configmaps/${name}`, body)
        : await call("DELETE", `/api/v1/namespaces/${NS}/configmaps/${name}`);
    if (res.status >= 200 && res.status < 300) {
      stats.writes++;
      const obj = JSON.parse(res.text);
      const rv = Number(obj.metadata?.resourceVersion);
      // A DELETE answers with the object as it was; its deletion has a later revision.
      if (exists && roll >= 0.75) expected.set(name, null);
      else {
        expected.set(name, String(rv));
        if (!committed.has(rv)) stats.lostWrites.push(`${name}@${rv} acknowledged, never committed`);
      }
    } else {
      stats.failedWrites++;
      await resync(name).catch(() => expected.delete(name));
    }
  }
}

async function badRequests(): Promise<void> {
  const r = rng(SEED ^ 0x5eed);
  while (running) {
    const req = fuzzRequest(r, BAD_NS);
    try {
      const res = await agent.request({
        origin: server.url,
        path: req.path,
        method: req.method as "GET",
        headers: { authorization: `Bearer ${server.token}`, ...req.headers },
        body: req.body,
      });
      res.body.on("error", () => {});
      res.body.destroy();
      stats.bad++;
      stats.badStatus.set(res.statusCode, (stats.badStatus.get(res.statusCode) ?? 0) + 1);
    } catch {
      stats.bad++;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const FAULTS: Array<[string, () => void | Promise<void>]> = [
  ["fail 500", () => server.faults.failNext(3, { status: 500 }, { namespace: NS })],
  ["fail 429", () => server.faults.failNext(3, { status: 429, retryAfterSeconds: 0 }, { namespace: NS })],
  ["reset", () => server.faults.failNext(2, { reset: true }, { namespace: NS })],
  ["drop watches", () => void server.faults.dropWatches({ namespace: NS })],
  ["reset watches", () => void server.faults.dropWatches({ namespace: NS }, "reset")],
  ["break mid-event", () => void server.faults.breakMidEvent({ namespace: NS })],
  ["malformed event", () => void server.faults.malformedEvent({ namespace: NS })],
  ["compact", () => void server.faults.compact()],
  [
    "stall watches 2 s",
    async () => {
      server.faults.stallWatches({ namespace: NS });
      await new Promise((resolve) => setTimeout(resolve, 2000));
      server.faults.unstall();
      server.faults.dropWatches({ namespace: NS });
    },
  ],
  [
    "pause delivery 1 s",
    async () => {
      server.faults.pauseDelivery();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      server.faults.resumeDelivery();
    },
  ],
  [
    "latency 50 ms for 2 s",
    async () => {
      server.faults.addLatency(50, { namespace: NS });
      await new Promise((resolve) => setTimeout(resolve, 2000));
      server.faults.addLatency(0, { namespace: NS });
    },
  ],
];

async function faults(): Promise<void> {
  const r = rng(SEED ^ 0xfa17);
  while (running) {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    if (!running) break;
    const [, fire] = FAULTS[Math.floor(r() * FAULTS.length)] as [string, () => void];
    await fire();
  }
}

function storeView(): Map<string, string> {
  const view = new Map<string, string>();
  for (const o of server.store.list(cmBucket, { prefix: `${NS}/` }).items as Array<{
    metadata: { name: string; resourceVersion: string };
  }>)
    view.set(o.metadata.name, o.metadata.resourceVersion);
  return view;
}

function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of a) if (b.get(k) !== v) out.push(`${k}: ${v} vs ${b.get(k) ?? "absent"}`);
  for (const [k, v] of b) if (!a.has(k)) out.push(`${k}: absent vs ${v}`);
  return out;
}

async function main(): Promise<void> {
  console.log(
    `soak: ${MINUTES} min, seed ${SEED}, ${WRITERS} writers, ${WATCHERS} watchers, faults every 3 s`,
  );
  for (const ns of [NS, BAD_NS])
    await call("POST", "/api/v1/namespaces", JSON.stringify({ metadata: { name: ns } }));
  const watchers = Array.from({ length: WATCHERS }, () => new Watcher(client, NS));
  await Promise.all(watchers.map((w) => w.start()));
  const started = Date.now();
  const loops = [...Array.from({ length: WRITERS }, (_, i) => writer(i)), badRequests(), faults()];
  const report = setInterval(() => {
    const m = process.memoryUsage();
    const events = watchers.map((w) => w.events).join("/");
    console.log(
      `${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s  rss ${mib(m.rss)}  heap ${mib(m.heapUsed)}  writes ${stats.writes} (failed ${stats.failedWrites})  events ${events}  relists ${watchers.map((w) => w.relists).join("/")}  bad requests ${stats.bad}`,
    );
  }, 30_000);
  await new Promise((resolve) => setTimeout(resolve, MINUTES * 60_000));
  running = false;
  await Promise.all(loops);
  clearInterval(report);
  server.faults.reset();
  // Quiesced: every watcher must converge on the store's view.
  const want = storeView();
  const lost = await Promise.all(watchers.map((w) => w.converge(want, 30_000)));
  const finalMismatch: string[] = [];
  for (const [name, rv] of expected)
    if ((want.get(name) ?? null) !== rv)
      finalMismatch.push(`${name}: acknowledged ${rv}, store ${want.get(name) ?? "absent"}`);
  const m = process.memoryUsage();
  console.log(
    `soak done: rss ${mib(m.rss)}, heap ${mib(m.heapUsed)}, writes ${stats.writes} (failed ${stats.failedWrites}), bad requests ${stats.bad} ${JSON.stringify(Object.fromEntries(stats.badStatus))}`,
  );
  console.log(
    `lost writes: ${stats.lostWrites.length + finalMismatch.length} ${[...stats.lostWrites, ...finalMismatch].slice(0, 10).join("; ")}`,
  );
  lost.forEach((l, i) => {
    const d = differences(want, l);
    console.log(
      `watcher ${i}: ${watchers[i]?.events} events, ${watchers[i]?.relists} relists, ${watchers[i]?.rewatches} re-watches, lost events: ${d.length} ${d.slice(0, 5).join("; ")}`,
    );
  });
  await Promise.all(watchers.map((w) => w.stop()));
}

try {
  await main();
} finally {
  await agent.close();
  await server.stop();
}
