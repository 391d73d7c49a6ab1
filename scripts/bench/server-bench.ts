/**
 * Reference server benchmark (issue 3): 10 000 creates over HTTPS, then a
 * store of 100 000 configmaps listed in pages of 500 and without a limit.
 * Reports requests/s, p50/p99 latency, peak RSS, and heap bytes per stored
 * object against the object's JSON size. Run: `pnpm bench:server`.
 */

import { startServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import { gc, mib, runConcurrent, summarize } from "./stats.js";

const CREATES = Number(process.env.BENCH_CREATES ?? 10_000);
const STORED = Number(process.env.BENCH_STORED ?? 100_000);

function configMap(i: number) {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: `cm-${String(i).padStart(6, "0")}`,
      namespace: "bench",
      labels: { app: "bench", shard: String(i % 10) },
    },
    data: { key: `value-${i}`, other: "x".repeat(100) },
  };
}

async function main(): Promise<void> {
  let peakRss = 0;
  const sample = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 50);
  const server = await startServer({ history: { revisions: 1000 }, cluster: false });
  const agent = new Agent({ connect: { ca: server.ca }, connections: 16 });
  const auth = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };
  const call = async (method: "GET" | "POST", path: string, body?: unknown) => {
    const res = await request(server.url + path, {
      method,
      headers: auth,
      body: body ? JSON.stringify(body) : undefined,
      dispatcher: agent,
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
    return text;
  };
  await call("POST", "/api/v1/namespaces", { metadata: { name: "bench" } });

  // 1. Creates over HTTPS, 16 in flight.
  let t0 = performance.now();
  const createLat = await runConcurrent(CREATES, 16, async (i) => {
    await call("POST", "/api/v1/namespaces/bench/configmaps", configMap(i));
  });
  const creates = summarize(createLat, performance.now() - t0);

  // 2. Fill the store to STORED objects in process (HTTP creates are measured above), measuring heap per object.
  const ns = server.resources.find("", "v1", "configmaps");
  if (!ns) throw new Error("no configmaps resource");
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let jsonBytes = 0;
  for (let i = CREATES; i < STORED; i++) {
    const obj = configMap(i);
    jsonBytes += JSON.stringify(obj).length;
    server.store.create(ns.bucket, `bench/${obj.metadata.name}`, {
      ...obj,
      metadata: { ...obj.metadata, uid: `u-${i}`, creationTimestamp: "2026-01-01T00:00:00Z" },
    });
  }
  gc();
  const added = STORED - CREATES;
  const heapPerObject = (process.memoryUsage().heapUsed - heapBefore) / added;
  const jsonPerObject = jsonBytes / added;

  // 3. Paginated list of everything, pages of 500.
  t0 = performance.now();
  const pageLat: number[] = [];
  let token = "";
  let items = 0;
  do {
    const p0 = performance.now();
    const body = JSON.parse(
      await call("GET", `/api/v1/namespaces/bench/configmaps?limit=500${token ? `&continue=${token}` : ""}`),
    );
    pageLat.push(performance.now() - p0);
    items += body.items.length;
    token = body.metadata.continue ?? "";
  } while (token);
  const paged = summarize(pageLat, performance.now() - t0);
  if (items !== STORED) throw new Error(`paged list returned ${items} items, expected ${STORED}`);

  // 4. One list without a limit (3 runs).
  const fullLat: number[] = [];
  let fullBytes = 0;
  for (let i = 0; i < 3; i++) {
    const p0 = performance.now();
    const text = await call("GET", "/api/v1/namespaces/bench/configmaps");
    fullLat.push(performance.now() - p0);
    fullBytes = text.length;
  }
  clearInterval(sample);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);

  console.log(`reference server benchmark (node ${process.version})`);
  console.log(
    `creates        ${creates.count} over HTTPS: ${creates.perSec.toFixed(0)} req/s, p50 ${creates.p50.toFixed(2)} ms, p99 ${creates.p99.toFixed(2)} ms`,
  );
  console.log(
    `list paged     ${STORED} objects in ${paged.count} pages of 500: ${paged.perSec.toFixed(1)} pages/s, p50 ${paged.p50.toFixed(1)} ms, p99 ${paged.p99.toFixed(1)} ms, ${(STORED / (paged.count / paged.perSec)).toFixed(0)} objects/s`,
  );
  console.log(
    `list unlimited ${STORED} objects (${mib(fullBytes)}): median ${[...fullLat].sort((a, b) => a - b)[1]?.toFixed(0)} ms`,
  );
  console.log(
    `memory         peak RSS ${mib(peakRss)}; heap per stored object ${heapPerObject.toFixed(0)} B vs JSON ${jsonPerObject.toFixed(0)} B (ratio ${(heapPerObject / jsonPerObject).toFixed(2)})`,
  );
  await agent.close();
  await server.stop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
