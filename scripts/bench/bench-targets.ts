/**
 * The two servers server-vs-real.ts compares, behind one shape: where to reach them, how long
 * they took to answer, how much memory they peaked at, and how to stop them.
 */
import { fork, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";
import { startRealApiserver } from "../real-apiserver/start.js";
import { serverExecArgv } from "./built-server.js";

export interface BenchTarget {
  readonly url: string;
  readonly ca: string;
  readonly token: string;
  /** Milliseconds from the start call until the server answers as ready. */
  readonly startupMs: number;
  /** Reference only: startTestServer() to its first answered request, in a fresh process. */
  readonly testServerMs?: number;
  /** Peak resident memory so far of the server's processes (kube-apiserver + etcd for the real one). */
  peakRssBytes(): Promise<number>;
  /** The server's CPU time so far (user + system), µs: the reference's process, or kube-apiserver + etcd. */
  cpuMicros?(): Promise<number>;
  /** Reference only: the server process's process.memoryUsage(). */
  memory?(): Promise<NodeJS.MemoryUsage>;
  /** Reference only: the server process's id (its threads' CPU time is in /proc). */
  readonly pid?: number;
  /** Reference only: writes a heap snapshot of the server process, resolves with its path. */
  heapSnapshot?(): Promise<string>;
  /** Idempotent; resolves once the server's processes are gone. */
  stop(): Promise<void>;
}

export class BenchTargetError extends Error {
  override readonly name = "BenchTargetError";
  readonly code = "BENCH_TARGET_FAILED";
}

interface ReadyMessage {
  url: string;
  ca: string | undefined;
  token: string;
  startupMs: number;
  testServerMs: number;
}

const childScript = fileURLToPath(new URL("./reference-server-child.mjs", import.meta.url));
const cliScript = fileURLToPath(new URL("../../packages/server/bin/kubesdk-server.js", import.meta.url));
const childStopGraceMs = 10_000;

function childStopper(child: ReturnType<typeof fork>): () => Promise<void> {
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send("stop");
      else child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), childStopGraceMs);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  };
}

/**
 * The reference server in a child process (fork reuses this process's --conditions/--import tsx).
 * startupMs is the child's own measure of startServer(), not the Node boot and module load.
 */
export function startReference(): Promise<BenchTarget> {
  // BENCH_CPU_PROF=DIR: a V8 CPU profile of each reference server process, written into DIR on stop.
  const profileDir = process.env.BENCH_CPU_PROF;
  // BENCH_SERVER_FLAGS: more node options for the server process (e.g. "--trace-opt --trace-deopt").
  const extraFlags = (process.env.BENCH_SERVER_FLAGS ?? "").split(" ").filter(Boolean);
  const child = fork(childScript, [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: [
      ...serverExecArgv(process.execArgv),
      ...(profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : []),
      ...extraFlags,
    ],
  });
  const stop = childStopper(child);
  const ask = <T, K extends string = string>(message: string, key: K) =>
    new Promise<T>((resolve) => {
      child.once("message", (m) => resolve((m as Record<K, T>)[key]));
      child.send(message);
    });
  const peakRssBytes = () => ask<number>("rss", "peakRssBytes");
  const cpuMicros = () => ask<number>("cpu", "cpuMicros");
  const memory = () => ask<NodeJS.MemoryUsage>("mem", "memory");
  const heapSnapshot = () => ask<string>("heap", "heapSnapshot");
  return new Promise((resolve, reject) => {
    child.once("message", (message) => {
      const ready = message as ReadyMessage;
      if (ready.ca === undefined) {
        void stop();
        reject(new BenchTargetError("reference server started without TLS (no CA)"));
        return;
      }
      resolve({
        ...ready,
        ca: ready.ca,
        pid: child.pid,
        peakRssBytes,
        cpuMicros,
        memory,
        heapSnapshot,
        stop,
      });
    });
    child.once("exit", (code, signal) =>
      reject(new BenchTargetError(`reference server process ended before ready (${signal ?? code})`)),
    );
  });
}

/** Peak RSS (VmHWM) of a process, from /proc; 0 when it is gone. */
function processPeakRss(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
    return kib === undefined ? 0 : Number(kib) * 1024;
  } catch {
    return 0;
  }
}

/** CPU of every thread of `pids`, µs, from schedstat (nanosecond run time). */
export function schedMicros(pids: readonly number[]): number {
  let ns = 0;
  for (const pid of pids) {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // The thread ended meanwhile: its time is lost either way.
      }
    }
  }
  return ns / 1000;
}

/**
 * etcd + kube-apiserver with the harness defaults (watch cache on). startupMs is the harness's
 * own timing: PKI via openssl, etcd healthy, then kube-apiserver /readyz ok. `binDir` is looked up
 * once by the caller so the build.sh lookup stays out of the timing.
 */
export async function startReal(binDir: string): Promise<BenchTarget> {
  const server = await startRealApiserver({ binDir });
  return {
    url: server.url,
    ca: server.caPem,
    token: server.token,
    startupMs: server.timings.apiserverReadyMs,
    peakRssBytes: async () => processPeakRss(server.pids.apiserver) + processPeakRss(server.pids.etcd),
    cpuMicros: async () =>
      schedMicros([server.pids.apiserver, server.pids.etcd].filter((p): p is number => p !== undefined)),
    stop: () => server.stop(),
  };
}

/**
 * The published CLI (`kubesdk-server --port 0`, from dist/: needs `pnpm build`) from spawn to its
 * first answered request (GET /version), then stopped.
 */
export async function timeCliStart(): Promise<number> {
  if (!existsSync(fileURLToPath(new URL("../../packages/server/dist/cli.js", import.meta.url)))) {
    throw new BenchTargetError("packages/server/dist is missing: run `pnpm build` first");
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-cli-"));
  const t0 = performance.now();
  const child = spawn(process.execPath, [cliScript, "--port", "0", "--kubeconfig", join(dir, "kubeconfig")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        const found = /listening on (\S+)/.exec(out)?.[1];
        if (found !== undefined) resolve(found);
      });
      child.once("exit", (code) => reject(new BenchTargetError(`kubesdk-server exited (${code})`)));
    });
    const agent = new Agent({ connect: { rejectUnauthorized: false } });
    const res = await request(`${url}/version`, { dispatcher: agent });
    await res.body.text();
    const ms = performance.now() - t0;
    await agent.close();
    return ms;
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
