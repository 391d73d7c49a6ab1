import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { locateBinaries } from "./binaries.js";
import { compactEtcd, type EtcdCompaction } from "./compact.js";
import { RealApiserverError } from "./errors.js";
import { type RunningEtcd, startEtcd } from "./etcd.js";
import { registerExitCleanup, removeDirNow } from "./exit-cleanup.js";
import { type RunningKubeApiserver, startKubeApiserver } from "./kube-apiserver.js";
import { writeKubeconfig } from "./kubeconfig.js";
import { createApiserverPki } from "./pki.js";

export { binDirEnvVar, locateBinaries, type RealApiserverBinaries } from "./binaries.js";
export { type CompactEtcdOptions, compactEtcd, type EtcdCompaction } from "./compact.js";
export { RealApiserverError, type RealApiserverErrorCode } from "./errors.js";

export interface StartRealApiserverOptions {
  /** Serve reads from the apiserver's watch cache (its default). false adds --watch-cache=false. */
  watchCache?: boolean;
  /** Appended after the defaults, so a repeated flag overrides the default. Each must start with "--". */
  extraApiserverFlags?: readonly string[];
  /** Directory with kube-apiserver, etcd and etcdctl; default: build.sh's cache. */
  binDir?: string;
  /** Bound on waiting for kube-apiserver's /readyz (etcd gets the same bound). Default 120 s. */
  readyTimeoutMs?: number;
  /** How long stop() waits after SIGTERM before SIGKILL, per process. Default 10 s. */
  stopGraceMs?: number;
  /** Keep the run directory (logs, certs, etcd data) after stop(), for debugging. */
  keepRunDir?: boolean;
}

export interface RealApiserver {
  /** https://127.0.0.1:<port> */
  url: string;
  /** Kubeconfig with server, CA data and the admin token (user in group system:masters). */
  kubeconfigPath: string;
  caPem: string;
  token: string;
  /** etcd client URL, http://127.0.0.1:<port> */
  etcdEndpoint: string;
  /** Temp dir with certs, logs (etcd.log, kube-apiserver.log) and etcd data; removed by stop(). */
  runDir: string;
  apiserverArgs: readonly string[];
  etcdArgs: readonly string[];
  /** Milliseconds from the call to etcd healthy, and to kube-apiserver /readyz ok. */
  timings: { etcdReadyMs: number; apiserverReadyMs: number };
  /** Process ids (benchmarks read the servers' CPU time from /proc). */
  pids: { apiserver: number | undefined; etcd: number | undefined };
  /** Compacts this server's etcd to its current revision. */
  compactEtcd(): Promise<EtcdCompaction>;
  /** Stops kube-apiserver then etcd (SIGTERM, SIGKILL after the grace), then removes runDir. Idempotent. */
  stop(): Promise<void>;
}

const portClashAttempts = 3;

function validate(options: StartRealApiserverOptions): void {
  for (const flag of options.extraApiserverFlags ?? []) {
    if (!flag.startsWith("--")) {
      throw new RealApiserverError(
        "INVALID_OPTION",
        `extraApiserverFlags entry ${JSON.stringify(flag)} must start with "--"`,
      );
    }
  }
  for (const key of ["readyTimeoutMs", "stopGraceMs"] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new RealApiserverError(
        "INVALID_OPTION",
        `${key} must be a positive number of milliseconds, got ${value}`,
      );
    }
  }
}

/** Free ports are picked before binding, so a rare clash with another process gets a fresh try. */
async function retryOnPortClash<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      const clash =
        error instanceof RealApiserverError &&
        error.code === "PROCESS_EXITED" &&
        error.message.includes("address already in use");
      if (!clash || attempt >= portClashAttempts) throw error;
    }
  }
}

/** Starts etcd and kube-apiserver on loopback and resolves once /readyz answers ok. */
export async function startRealApiserver(options: StartRealApiserverOptions = {}): Promise<RealApiserver> {
  validate(options);
  const startedAt = Date.now();
  const readyTimeoutMs = options.readyTimeoutMs ?? 120_000;
  const stopGraceMs = options.stopGraceMs ?? 10_000;
  const binaries = await locateBinaries(options.binDir);
  const runDir = await mkdtemp(join(tmpdir(), "kubesdk-real-apiserver-"));

  let etcd: RunningEtcd | undefined;
  let apiserver: RunningKubeApiserver | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      unregister();
      await apiserver?.process.stop(stopGraceMs);
      await etcd?.process.stop(stopGraceMs);
      if (!options.keepRunDir) await rm(runDir, { recursive: true, force: true });
    })();
    return stopping;
  };
  const unregister = registerExitCleanup({
    stop,
    stopNow: () => {
      apiserver?.process.killNow();
      etcd?.process.killNow();
      if (!options.keepRunDir) removeDirNow(runDir);
    },
  });

  try {
    const pki = await createApiserverPki(runDir);
    etcd = await retryOnPortClash(() => startEtcd({ etcdPath: binaries.etcd, runDir, readyTimeoutMs }));
    const etcdReadyMs = Date.now() - startedAt;
    const etcdEndpoint = etcd.endpoint;
    apiserver = await retryOnPortClash(() =>
      startKubeApiserver({
        kubeApiserverPath: binaries.kubeApiserver,
        runDir,
        pki,
        etcdEndpoint,
        watchCache: options.watchCache ?? true,
        extraFlags: options.extraApiserverFlags ?? [],
        readyTimeoutMs,
      }),
    );
    const apiserverReadyMs = Date.now() - startedAt;
    const kubeconfigPath = join(runDir, "kubeconfig");
    await writeKubeconfig(kubeconfigPath, { server: apiserver.url, caPem: pki.caPem, token: pki.adminToken });
    return {
      url: apiserver.url,
      kubeconfigPath,
      caPem: pki.caPem,
      token: pki.adminToken,
      etcdEndpoint,
      runDir,
      apiserverArgs: apiserver.args,
      etcdArgs: etcd.args,
      timings: { etcdReadyMs, apiserverReadyMs },
      pids: { apiserver: apiserver.process.pid, etcd: etcd.process.pid },
      compactEtcd: () => compactEtcd(etcdEndpoint, { binDir: options.binDir ?? dirname(binaries.etcdctl) }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
