/**
 * The two servers real-vs-reference.ts compares, behind one shape: where to reach them, how long
 * they took to become ready, and how to stop them.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startRealApiserver } from "../real-apiserver/start.js";

export interface BenchTarget {
  readonly url: string;
  readonly ca: string;
  readonly token: string;
  /** Milliseconds from the start call until the server answers as ready. */
  readonly startupMs: number;
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
}

const childScript = fileURLToPath(new URL("./reference-server-child.ts", import.meta.url));
const childStopGraceMs = 10_000;

/**
 * The reference server in a child process (fork reuses this process's --conditions/--import tsx).
 * startupMs is the child's own measure of startServer(), not the Node boot and module load.
 */
export function startReference(): Promise<BenchTarget> {
  const child = fork(childScript, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
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
  return new Promise((resolve, reject) => {
    child.once("message", (message) => {
      const ready = message as ReadyMessage;
      if (ready.ca === undefined) {
        void stop();
        reject(new BenchTargetError("reference server started without TLS (no CA)"));
        return;
      }
      resolve({ url: ready.url, ca: ready.ca, token: ready.token, startupMs: ready.startupMs, stop });
    });
    child.once("exit", (code, signal) =>
      reject(new BenchTargetError(`reference server process ended before ready (${signal ?? code})`)),
    );
  });
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
    stop: () => server.stop(),
  };
}
