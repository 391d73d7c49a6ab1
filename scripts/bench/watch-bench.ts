/**
 * Watch fan-out benchmark (issue 5): events/s delivered to 1, 100 and 1 000
 * watchers, heap per idle watcher, and writer latency with and without a
 * stalled (non-reading) watcher attached. Run: `pnpm bench:watch`.
 */

import { startServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import { gc, mib, runConcurrent, summarize } from "./stats.js";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);

async function main(): Promise<void> {
  const server = await startServer({ watch: { maxBufferedBytes: 4 * 1024 * 1024 }, cluster: false });
  const agent = new Agent({ connect: { ca: server.ca, timeout: 60_000 }, connections: 1200, pipelining: 0 });
  const headers = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };
  const post = async (body: unknown) => {
    const res = await request(`${server.url}/api/v1/namespaces/default/configmaps`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      dispatcher: agent,
    });
    await res.body.text();
    if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode}`);
  };
  const cm = server.resources.find("", "v1", "configmaps");
  if (!cm) throw new Error("no configmaps");
  let seq = 0;

  /** Opens n watchers that count newline-terminated events; resolves when each saw `expect` events. */
  async function watchers(n: number, expect: number) {
    const rv = server.store.revision;
    let done = 0;
    let resolveAll: () => void = () => {};
    const all = new Promise<void>((r) => {
      resolveAll = r;
    });
    // Open in batches: a thousand TLS handshakes at once starve a 2-core machine.
    const bodies: { destroy(): void }[] = [];
    for (let opened = 0; opened < n; opened += 100) {
      bodies.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(100, n - opened) }, async () => {
            const res = await request(
              `${server.url}/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`,
              { headers, dispatcher: agent },
            );
            let count = 0;
            res.body.on("data", (chunk: Buffer) => {
              for (const b of chunk) if (b === 10) count++;
              if (count === expect) {
                done++;
                if (done === n) resolveAll();
              }
            });
            res.body.on("error", () => {});
            return res.body;
          }),
        )),
      );
    }
    return {
      all,
      close: () => {
        for (const b of bodies) b.destroy();
      },
    };
  }

  console.log(`watch fan-out benchmark (node ${process.version}), ${EVENTS} events per run`);
  for (const n of [1, 100, 1000]) {
    const events = n === 1000 ? Math.min(EVENTS, 500) : EVENTS;
    const w = await watchers(n, events);
    const t0 = performance.now();
    for (let i = 0; i < events; i++) {
      seq++;
      server.store.create(cm.bucket, `default/w-${seq}`, {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: `w-${seq}`, namespace: "default" },
        data: { i: String(i) },
      });
    }
    await w.all;
    const ms = performance.now() - t0;
    console.log(
      `${String(n).padStart(4)} watchers: ${(((events * n) / ms) * 1000).toFixed(0)} deliveries/s (${((events / ms) * 1000).toFixed(0)} events/s written, each to all watchers)`,
    );
    w.close();
  }

  // Heap per idle watcher.
  gc();
  const before = process.memoryUsage().heapUsed;
  const idle = await watchers(1000, Number.POSITIVE_INFINITY);
  gc();
  const perWatcher = (process.memoryUsage().heapUsed - before) / 1000;
  console.log(
    `idle watchers: ${perWatcher.toFixed(0)} B of heap each (server and client side of the loopback connection together)`,
  );
  idle.close();

  // Writer latency without and with a stalled watcher.
  const baseline = summarize(
    await runConcurrent(1000, 4, async () => post({ metadata: { generateName: "lat-" } })),
    1,
  );
  const stuck = await request(
    `${server.url}/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${server.store.revision}`,
    { headers, dispatcher: agent },
  );
  stuck.body.pause();
  stuck.body.on("error", () => {});
  const stalled = summarize(
    await runConcurrent(1000, 4, async () =>
      post({ metadata: { generateName: "lat-" }, data: { pad: "z".repeat(4096) } }),
    ),
    1,
  );
  console.log(
    `writer latency: p50 ${baseline.p50.toFixed(2)} ms / p99 ${baseline.p99.toFixed(2)} ms without; p50 ${stalled.p50.toFixed(2)} ms / p99 ${stalled.p99.toFixed(2)} ms with a stalled watcher (ratio p50 ${(stalled.p50 / baseline.p50).toFixed(2)})`,
  );
  console.log(
    `open watches at the end: ${server.watches.streams.size} (the stalled one is cut once its backlog passes the buffer bound); RSS ${mib(process.memoryUsage().rss)}`,
  );
  stuck.body.destroy();
  await agent.close();
  await server.stop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
