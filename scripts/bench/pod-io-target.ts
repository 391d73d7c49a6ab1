/**
 * Where the pod I/O benchmark runs: the reference server in-process, or a real kube-apiserver
 * (started by scripts/real-apiserver) with a kubelet endpoint registered as a Node.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kube } from "@kubesdk/client";
import { type PodRuntimeOptions, startKubeletEndpoint, startServer } from "@kubesdk/server";
import { Agent, request } from "undici";
import { startRealApiserver } from "../real-apiserver/start.js";

export interface BenchTarget {
  readonly label: string;
  readonly kubeconfigPath: string;
  /** Creates the benchmark's pod (bound to the kubelet on a real apiserver); returns its name. */
  createPod(kube: Kube): Promise<string>;
  stop(): Promise<void>;
}

const POD = "bench-pod";
const podSpec = { containers: [{ name: "main", image: "busybox" }] };

export async function startBenchTarget(real: boolean, pods: PodRuntimeOptions): Promise<BenchTarget> {
  if (!real) {
    const server = await startServer({ pods });
    const kubeconfigPath = join(tmpdir(), `kubesdk-podio-bench-${process.pid}.kubeconfig`);
    writeFileSync(kubeconfigPath, server.kubeconfig);
    return {
      label: "the reference server (in-process)",
      kubeconfigPath,
      async createPod(kube) {
        await kube
          .resource("v1", "Pod")
          .create({ metadata: { name: POD }, spec: podSpec }, { namespace: "default" });
        return POD;
      },
      stop: () => server.stop(),
    };
  }
  const api = await startRealApiserver();
  const dispatcher = new Agent({ connect: { ca: api.caPem } });
  const call = async (method: string, path: string, body: unknown, contentType = "application/json") => {
    const res = await request(api.url + path, {
      method: method as "GET",
      dispatcher,
      headers: { authorization: `Bearer ${api.token}`, "content-type": contentType },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const kubelet = await startKubeletEndpoint({
    pods,
    lookupPod: (ns, name) => call("GET", `/api/v1/namespaces/${ns}/pods/${name}`, undefined),
  });
  await call("POST", "/api/v1/nodes", { metadata: { name: "bench-node" } });
  const status = {
    addresses: [{ type: "InternalIP", address: "127.0.0.1" }],
    daemonEndpoints: { kubeletEndpoint: { Port: kubelet.port } },
    conditions: [{ type: "Ready", status: "True", reason: "KubeletReady" }],
  };
  await call("PATCH", "/api/v1/nodes/bench-node/status", { status }, "application/merge-patch+json");
  return {
    label: "kube-apiserver -> kubelet endpoint",
    kubeconfigPath: api.kubeconfigPath,
    async createPod() {
      await call("POST", "/api/v1/namespaces/default/serviceaccounts", {
        metadata: { name: "default" },
      }).catch(() => undefined);
      await call("POST", "/api/v1/namespaces/default/pods", {
        metadata: { name: POD },
        spec: { ...podSpec, nodeName: "bench-node" },
      });
      return POD;
    },
    async stop() {
      await kubelet.close();
      await dispatcher.close();
      await api.stop();
    },
  };
}
