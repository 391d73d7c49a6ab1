/**
 * A cluster for the components suite: an API server (the reference server
 * with its in-process controllers off, or a real kube-apiserver + etcd) and
 * the real kube-controller-manager and kube-scheduler started against it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type PodStage, startServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import { ManagedProcess } from "../real-apiserver/managed-process.js";
import { startRealApiserver } from "../real-apiserver/start.js";

export type TargetKind = "reference" | "real";

/** The nodes the kubelets play on both targets. */
export const NODES = ["node-1", "node-2"];

/**
 * Stage rules of the kubelets on both targets: containers take a second to stop after a deletion,
 * as a runtime's do (upstream's Pod Generation test reads a gracefully deleted pod before the
 * kubelet removes it); the images upstream's e2e tests use because no registry has them (to keep a
 * rollout from finishing) cannot be pulled here either.
 */
export const STAGES: readonly PodStage[] = [
  { name: "containers-stop-in-a-second", behaviour: { stopMs: 1000 } },
  {
    name: "images-no-registry-has",
    images: ["webserver:404", "foo:non-existent", "gcr.io/google_samples/gb-redisslave:nonexistent"],
    behaviour: { imagePullFails: true },
  },
];

export interface CallResult {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: scenarios read arbitrary JSON shapes.
  readonly json: any;
}

export interface Cluster {
  readonly kind: TargetKind;
  readonly kubeconfigPath: string;
  readonly runDir: string;
  call(method: string, path: string, body?: unknown, contentType?: string): Promise<CallResult>;
  kubectl(...args: string[]): Promise<string>;
  /** Streams a watch (`path` with `watch=1`): one call per event line; the signal ends it. */
  watch(
    path: string,
    onEvent: (event: { type: string; object: unknown }) => void,
    signal: AbortSignal,
  ): Promise<void>;
  /** Startup times in milliseconds. */
  readonly timings: { apiserverMs: number; componentsMs: number };
  stop(): Promise<void>;
}

const run = promisify(execFile);

interface Server {
  url: string;
  token: string;
  ca: string | undefined;
  kubeconfigPath: string;
  stop(): Promise<void>;
}

async function startApiserver(kind: TargetKind, runDir: string): Promise<Server> {
  if (kind === "real") {
    const real = await startRealApiserver({ readyTimeoutMs: 180_000 });
    return {
      url: real.url,
      token: real.token,
      ca: real.caPem,
      kubeconfigPath: real.kubeconfigPath,
      stop: real.stop,
    };
  }
  const kubeconfigPath = join(runDir, "kubeconfig");
  // The server's own simulated kubelets play the nodes; the real components do the rest.
  const cluster = { nodes: NODES.map((name) => ({ name })), heartbeatMs: 5_000, stages: STAGES };
  const ref = await startServer({ controllers: false, cluster, kubeconfigPath });
  return { url: ref.url, token: ref.token, ca: ref.ca, kubeconfigPath, stop: () => ref.stop() };
}

/** Flags both components get: the admin kubeconfig, leader election, no serving port of their own. */
function componentArgs(kubeconfig: string): string[] {
  return [`--kubeconfig=${kubeconfig}`, "--leader-elect=true", "--secure-port=0", "--v=2"];
}

export async function startCluster(kind: TargetKind, binDir: string): Promise<Cluster> {
  const runDir = mkdtempSync(join(tmpdir(), `kubesdk-components-${kind}-`));
  const t0 = Date.now();
  const server = await startApiserver(kind, runDir);
  const apiserverMs = Date.now() - t0;
  const caPath = join(runDir, "ca.crt");
  if (server.ca) writeFileSync(caPath, server.ca);
  const kcm = new ManagedProcess(
    "kube-controller-manager",
    join(binDir, "kube-controller-manager"),
    [
      ...componentArgs(server.kubeconfigPath),
      "--controllers=*",
      "--use-service-account-credentials=false",
      ...(server.ca ? [`--root-ca-file=${caPath}`] : []),
      "--node-monitor-grace-period=40s",
    ],
    join(runDir, "kube-controller-manager.log"),
  );
  const scheduler = new ManagedProcess(
    "kube-scheduler",
    join(binDir, "kube-scheduler"),
    componentArgs(server.kubeconfigPath),
    join(runDir, "kube-scheduler.log"),
  );
  const dispatcher = new Agent({ connect: server.ca ? { ca: server.ca } : {} });
  const call = async (method: string, path: string, body?: unknown, contentType?: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${server.token}` };
    if (body !== undefined) headers["content-type"] = contentType ?? "application/json";
    const res = await request(server.url + path, {
      method: method as "GET",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher,
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.statusCode, json };
  };
  const watch = async (
    path: string,
    onEvent: (e: { type: string; object: unknown }) => void,
    signal: AbortSignal,
  ) => {
    const headers = { authorization: `Bearer ${server.token}` };
    const res = await request(server.url + path, { method: "GET", headers, dispatcher, signal });
    let pending = "";
    try {
      for await (const chunk of res.body) {
        pending += chunk.toString();
        for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          if (line.trim() !== "") onEvent(JSON.parse(line));
        }
      }
    } catch (e) {
      if (!signal.aborted) throw e;
    }
  };
  return {
    kind,
    kubeconfigPath: server.kubeconfigPath,
    runDir,
    call,
    watch,
    async kubectl(...args: string[]) {
      const { stdout } = await run("kubectl", ["--kubeconfig", server.kubeconfigPath, ...args], {
        timeout: 180_000,
      });
      return stdout;
    },
    timings: { apiserverMs, componentsMs: Date.now() - t0 - apiserverMs },
    async stop() {
      await Promise.all([kcm.stop(10_000), scheduler.stop(10_000)]);
      await dispatcher.close();
      await server.stop();
    },
  };
}
