/**
 * Runs the reference server in its own process for server-vs-real.ts, so the benchmark client
 * does not share the server's event loop (kube-apiserver gets its own processes too). First times
 * startTestServer() to its first answered request (what a test file pays, module loading aside),
 * then starts the measured server and reports { url, ca, token, startupMs, testServerMs } over
 * IPC once listening. Answers "rss" with the process's peak RSS in bytes and "cpu" with its
 * CPU time so far in µs (user + system), "mem" with process.memoryUsage(), "heap" by writing a heap
 * snapshot (into BENCH_HEAP_DIR, or the working directory) and answering its path; stops on a "stop"
 * message or when the parent goes away.
 *
 * BENCH_SERVER_DIST=<dir> loads the server from that directory instead of the package.
 *
 * Plain JavaScript so that a BENCH_SERVER=built run needs no TypeScript loader: tsx's loader
 * thread and transformed sources were about 85 MiB of the process's RSS, which the published
 * package and the kubesdk-server command never carry (docs/performance.md).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { writeHeapSnapshot } from "node:v8";

// BENCH_SERVER_DIST: another build of packages/server (a directory holding index.js and
// testing.js, placed where it resolves the same dependencies), for A/B runs of two builds.
const dist = process.env.BENCH_SERVER_DIST;
const entry = (name, file) => (dist ? pathToFileURL(join(dist, file)).href : name);
/** @type {typeof import("@kubesdk/server")} */
const { startServer } = await import(entry("@kubesdk/server", "index.js"));
/** @type {typeof import("@kubesdk/server/testing")} */
const { startTestServer } = await import(entry("@kubesdk/server/testing", "testing.js"));

if (!process.send) throw new Error("reference-server-child.mjs must be started with child_process.fork");
const send = process.send.bind(process);

/** @returns {Promise<number>} */
async function timeTestServer() {
  const t0 = performance.now();
  const cluster = await startTestServer();
  await cluster.client().resource("v1", "Namespace").get("default");
  const ms = performance.now() - t0;
  await cluster.stop();
  return ms;
}

const testServerMs = await timeTestServer();
// Timed after the module import: startup is startServer() until it resolves.
const t0 = performance.now();
const server = await startServer({ cluster: false });
const startupMs = performance.now() - t0;

let stopping = false;
const stopAndExit = async () => {
  if (stopping) return;
  stopping = true;
  await server.stop();
  process.exit(0);
};
process.on("message", (message) => {
  if (message === "stop") void stopAndExit();
  // resourceUsage reports kilobytes.
  if (message === "rss") send({ peakRssBytes: process.resourceUsage().maxRSS * 1024 });
  if (message === "cpu") {
    const { user, system } = process.cpuUsage();
    send({ cpuMicros: user + system });
  }
  if (message === "mem") send({ memory: process.memoryUsage() });
  if (message === "heap") {
    const dir = process.env.BENCH_HEAP_DIR ?? ".";
    send({ heapSnapshot: writeHeapSnapshot(`${dir}/reference-${process.pid}-${Date.now()}.heapsnapshot`) });
  }
});
// The parent died or closed the channel: nobody is left to stop us.
process.on("disconnect", () => void stopAndExit());

send({ url: server.url, ca: server.ca, token: server.token, startupMs, testServerMs });
