/**
 * The reference server in its own process for isolation-bench.ts, with an event-loop delay monitor.
 * IPC: { type: "seed", namespace, count } stores `count` ConfigMaps directly (answers "seeded");
 * { type: "delay" } answers { maxMs, p99Ms, maxCpuMs } since the previous "delay" and resets the monitors.
 * maxCpuMs is the longest event-loop turn in CPU time of the main thread (Linux: the thread's
 * schedstat), which a busy shared machine does not inflate as it does wall time; undefined elsewhere.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { startServer } from "@kubesdk/server";

if (!process.send) throw new Error("isolation-server-child.ts must be started with child_process.fork");
const send = process.send.bind(process);

const server = await startServer({ cluster: false });
const monitor = monitorEventLoopDelay({ resolution: 1 });
monitor.enable();

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
/** CPU time of the main thread in ns (its worker threads not counted), if the platform tells. */
function mainThreadCpuNs(): number | undefined {
  try {
    return Number(readFileSync(SCHEDSTAT, "utf8").split(" ")[0]);
  } catch {
    return undefined;
  }
}
let lastCpuNs = mainThreadCpuNs();
let maxCpuNs = 0;
if (lastCpuNs !== undefined)
  setInterval(() => {
    const now = mainThreadCpuNs() as number;
    maxCpuNs = Math.max(maxCpuNs, now - (lastCpuNs as number));
    lastCpuNs = now;
  }, 1).unref();

function seed(namespace: string, count: number): void {
  const r = server.resources.find("", "v1", "configmaps");
  if (!r) throw new Error("configmaps are not served");
  const created = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  for (let i = 0; i < count; i++) {
    const name = `cm-${String(i).padStart(6, "0")}`;
    server.store.create(r.bucket, `${namespace}/${name}`, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, namespace, uid: randomUUID(), creationTimestamp: created, labels: { app: "bench" } },
      data: { key: `value-${i}`, other: "x".repeat(64) },
    } as never);
  }
}

process.on("message", (message: { type: string; namespace?: string; count?: number }) => {
  if (message.type === "seed") {
    seed(String(message.namespace), Number(message.count));
    send("seeded");
  } else if (message.type === "delay") {
    const maxCpuMs = lastCpuNs === undefined ? undefined : maxCpuNs / 1e6;
    send({ maxMs: monitor.max / 1e6, p99Ms: monitor.percentile(99) / 1e6, maxCpuMs });
    monitor.reset();
    maxCpuNs = 0;
  } else if (message.type === "stop") void server.stop().then(() => process.exit(0));
});
process.on("disconnect", () => void server.stop().then(() => process.exit(0)));

send({ url: server.url, ca: server.ca, token: server.token });
