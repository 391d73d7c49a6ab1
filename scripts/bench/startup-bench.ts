/**
 * Startup benchmark: how long the embedded reference server takes to be ready,
 * per in-process start (the first start pays module loading and JIT warm-up,
 * later ones show the per-test cost), and, when the real binaries are cached,
 * how long kube-apiserver + etcd take, as a ratio. "Ready" is the first
 * `GET /readyz` over TLS answering 200 after the start call.
 * Run: `pnpm bench:startup` (BENCH_STARTS=N, default 30; BENCH_REAL_STARTS, default 3).
 */

import { startServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import { percentile } from "./stats.js";

const STARTS = Number(process.env.BENCH_STARTS ?? 30);
const REAL_STARTS = Number(process.env.BENCH_REAL_STARTS ?? 3);

async function readyz(url: string, ca: string | undefined): Promise<void> {
  const agent = new Agent({ connect: ca ? { ca } : {} });
  try {
    const res = await request(`${url}/readyz`, { dispatcher: agent });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`/readyz answered ${res.statusCode}`);
  } finally {
    await agent.close();
  }
}

interface Sample {
  startMs: number;
  readyMs: number;
}

async function referenceStart(): Promise<Sample> {
  const t0 = performance.now();
  const server = await startServer();
  const startMs = performance.now() - t0;
  await readyz(server.url, server.ca);
  const readyMs = performance.now() - t0;
  await server.stop();
  return { startMs, readyMs };
}

function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

async function realStarts(): Promise<number[] | string> {
  let start: typeof import("../real-apiserver/start.js");
  try {
    start = await import("../real-apiserver/start.js");
    await start.locateBinaries();
  } catch (error) {
    return `skipped: real binaries not cached (${(error as Error).message.split("\n")[0]})`;
  }
  const samples: number[] = [];
  for (let i = 0; i < REAL_STARTS; i++) {
    const t0 = performance.now();
    const server = await start.startRealApiserver();
    samples.push(performance.now() - t0);
    await server.stop();
  }
  return samples;
}

async function main(): Promise<void> {
  const first = await referenceStart();
  const later: Sample[] = [];
  for (let i = 1; i < STARTS; i++) later.push(await referenceStart());
  const laterReady = median(later.map((s) => s.readyMs));
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(`reference server (startServer, HTTPS), ${STARTS} in-process starts`);
  console.log(`  first start:  startServer() ${fmt(first.startMs)}, ready ${fmt(first.readyMs)}`);
  console.log(
    `  later starts: startServer() median ${fmt(median(later.map((s) => s.startMs)))}, ` +
      `ready median ${fmt(laterReady)}, max ${fmt(Math.max(...later.map((s) => s.readyMs)))}`,
  );
  const real = await realStarts();
  if (typeof real === "string") {
    console.log(`kube-apiserver + etcd: ${real}`);
    return;
  }
  const realMedian = median(real);
  console.log(`kube-apiserver + etcd, ${real.length} starts: ready median ${fmt(realMedian)}`);
  console.log(`ratio: the reference server is ready ${(realMedian / laterReady).toFixed(0)}x sooner`);
}

await main();
