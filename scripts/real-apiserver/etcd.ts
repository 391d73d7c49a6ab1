import { join } from "node:path";
import { freeLoopbackPort } from "./free-port.js";
import { httpGet } from "./http-get.js";
import { ManagedProcess } from "./managed-process.js";
import { waitUntilReady } from "./wait-ready.js";

export interface StartEtcdOptions {
  etcdPath: string;
  runDir: string;
  readyTimeoutMs: number;
}

export interface RunningEtcd {
  process: ManagedProcess;
  /** Client URL, e.g. http://127.0.0.1:40123 (plain HTTP, loopback only). */
  endpoint: string;
  args: readonly string[];
}

/** Flags for a single-member etcd that only listens on loopback and never fsyncs (test data only). */
export function etcdArgs(dataDir: string, clientPort: number, peerPort: number): string[] {
  const clientUrl = `http://127.0.0.1:${clientPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  return [
    "--name=kubesdk",
    `--data-dir=${dataDir}`,
    `--listen-client-urls=${clientUrl}`,
    `--advertise-client-urls=${clientUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=kubesdk=${peerUrl}`,
    "--initial-cluster-state=new",
    "--unsafe-no-fsync",
    "--log-level=warn",
  ];
}

export async function startEtcd({
  etcdPath,
  runDir,
  readyTimeoutMs,
}: StartEtcdOptions): Promise<RunningEtcd> {
  const clientPort = await freeLoopbackPort();
  const peerPort = await freeLoopbackPort();
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const args = etcdArgs(join(runDir, "etcd-data"), clientPort, peerPort);
  const process = new ManagedProcess("etcd", etcdPath, args, join(runDir, "etcd.log"));
  try {
    await waitUntilReady({
      process,
      timeoutMs: readyTimeoutMs,
      probe: async () => {
        const { status, body } = await httpGet(`${endpoint}/health`, { timeoutMs: 2_000 });
        return status === 200 && body.includes('"health":"true"') ? true : `HTTP ${status} ${body.trim()}`;
      },
    });
  } catch (error) {
    await process.stop(2_000);
    throw error;
  }
  return { process, endpoint, args };
}
