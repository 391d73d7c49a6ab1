/**
 * A kubelet for the real kube-apiserver: the reference server's pod runtime behind a kubelet API
 * endpoint, registered as a Ready Node whose InternalIP is 127.0.0.1 and whose
 * daemonEndpoints.kubeletEndpoint.Port is the endpoint's port. kube-apiserver proxies pods/log,
 * exec, attach and portforward of pods bound to that node (spec.nodeName) to it. Pods' HTTP ports
 * (pods/proxy) are served on this machine's first non-loopback IPv4 address, their podIP.
 */
import { networkInterfaces } from "node:os";
import { type KubeletEndpoint, type PodRuntimeOptions, startKubeletEndpoint } from "@kubesdk/server";
import type { TestTarget } from "./target.js";
import { uniqueName } from "./target.js";

/** This machine's first non-loopback, non-link-local IPv4 address (what pod IPs are), if any. */
export function podAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? [])
      if (a.family === "IPv4" && !a.internal && !a.address.startsWith("169.254.")) return a.address;
  return undefined;
}

/** podAddress(), or an error saying why pod IPs cannot be served (never a skip). */
export function requirePodAddress(): string {
  const address = podAddress();
  if (address === undefined)
    throw new Error(
      "this machine has no non-loopback IPv4 address: a real kube-apiserver's pods/proxy and " +
        "aggregator refuse loopback, so pod ports and the metrics API cannot be served to it",
    );
  return address;
}

export interface TestKubelet {
  readonly nodeName: string;
  readonly endpoint: KubeletEndpoint;
  close(): Promise<void>;
}

/** Throws with the body when a call did not succeed. */
export async function expectOk(what: string, p: Promise<{ status: number; text: string }>): Promise<void> {
  const r = await p;
  if (r.status >= 300) throw new Error(`${what}: HTTP ${r.status} ${r.text}`);
}

export async function startTestKubelet(t: TestTarget, pods: PodRuntimeOptions = {}): Promise<TestKubelet> {
  const address = podAddress();
  const endpoint = await startKubeletEndpoint({
    pods,
    ...(address !== undefined ? { podAddress: address } : {}),
    lookupPod: async (namespace, name) => {
      const r = await t.call("GET", `/api/v1/namespaces/${namespace}/pods/${name}`);
      return r.status === 200 ? r.json : undefined;
    },
  });
  const nodeName = uniqueName("kubelet");
  const status = {
    addresses: [
      { type: "InternalIP", address: "127.0.0.1" },
      { type: "Hostname", address: "127.0.0.1" },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: endpoint.port } },
    conditions: [
      {
        type: "Ready",
        status: "True",
        reason: "KubeletReady",
        message: "kubelet is posting ready status",
        lastHeartbeatTime: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
        lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
      },
    ],
  };
  await expectOk("create node", t.call("POST", "/api/v1/nodes", { body: { metadata: { name: nodeName } } }));
  await expectOk(
    "node status",
    t.call("PATCH", `/api/v1/nodes/${nodeName}/status`, {
      body: { status },
      contentType: "application/merge-patch+json",
    }),
  );
  return {
    nodeName,
    endpoint,
    async close() {
      await endpoint.close();
      await t.call("DELETE", `/api/v1/nodes/${nodeName}`);
    },
  };
}

/** Marks a pod bound to the test kubelet as running, with its containers started and ready. */
export async function markRunning(
  t: TestTarget,
  namespace: string,
  name: string,
  containers: readonly string[],
) {
  const now = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const ip = podAddress() ?? "10.244.0.10";
  const status = {
    phase: "Running",
    podIP: ip,
    podIPs: [{ ip }],
    hostIP: "127.0.0.1",
    startTime: now,
    conditions: [{ type: "Ready", status: "True", lastTransitionTime: now }],
    containerStatuses: containers.map((c) => ({
      name: c,
      image: "busybox",
      imageID: "",
      ready: true,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: now } },
    })),
  };
  await expectOk(
    "pod status",
    t.call("PATCH", `/api/v1/namespaces/${namespace}/pods/${name}/status`, {
      body: { status },
      contentType: "application/merge-patch+json",
    }),
  );
}
