/**
 * metrics.k8s.io on a real kube-apiserver, as a cluster with metrics-server has it: the pod runtime's
 * metrics endpoint (HTTPS, on this machine's non-loopback address) behind a selector-less Service with
 * an EndpointSlice and Endpoints naming that address, and the APIService `v1beta1.metrics.k8s.io`
 * pointing at the Service (test:real starts the apiserver with --enable-aggregator-routing=true, so
 * the aggregator dials the endpoint, not the Service's cluster IP). Resolves once the APIService is
 * Available. The reference server serves metrics.k8s.io itself.
 */
import { type PodRuntime, startMetricsEndpoint } from "@kubesdk/server";
import { vi } from "vitest";
import { requirePodAddress } from "./kubelet.js";
import type { TestTarget } from "./target.js";

const API_SERVICE = "v1beta1.metrics.k8s.io";

async function ok(what: string, p: Promise<{ status: number; text: string }>): Promise<void> {
  const r = await p;
  if (r.status >= 300) throw new Error(`${what}: HTTP ${r.status} ${r.text}`);
}

/** Registers the runtime's metrics for the pods and node of the test kubelet `nodeName`. */
export async function registerMetricsApi(
  t: TestTarget,
  runtime: PodRuntime,
  nodeName: string,
  namespace: string,
): Promise<{ close(): Promise<void> }> {
  const host = requirePodAddress();
  const service = "kubesdk-metrics";
  const list = async (path: string) =>
    ((await t.call("GET", path)).json?.items ?? []) as Record<string, unknown>[];
  const onNode = `fieldSelector=${encodeURIComponent(`spec.nodeName=${nodeName}`)}`;
  const endpoint = await startMetricsEndpoint({
    runtime,
    host,
    dnsNames: [`${service}.${namespace}.svc`],
    source: {
      pods: (ns) => list(`/api/v1${ns === undefined ? "" : `/namespaces/${ns}`}/pods?${onNode}`),
      nodes: () => list(`/api/v1/nodes?fieldSelector=${encodeURIComponent(`metadata.name=${nodeName}`)}`),
    },
  });
  const port = { name: "https", port: endpoint.port, protocol: "TCP" };
  const base = `/api/v1/namespaces/${namespace}`;
  await ok(
    "metrics service",
    t.call("POST", `${base}/services`, {
      body: {
        metadata: { name: service },
        spec: { ports: [{ ...port, port: 443, targetPort: endpoint.port }] },
      },
    }),
  );
  await ok(
    "metrics endpointslice",
    t.call("POST", `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices`, {
      body: {
        metadata: { name: service, labels: { "kubernetes.io/service-name": service } },
        addressType: "IPv4",
        endpoints: [{ addresses: [host], conditions: { ready: true } }],
        ports: [port],
      },
    }),
  );
  await ok(
    "metrics endpoints",
    t.call("POST", `${base}/endpoints`, {
      body: { metadata: { name: service }, subsets: [{ addresses: [{ ip: host }], ports: [port] }] },
    }),
  );
  await t.call("DELETE", `/apis/apiregistration.k8s.io/v1/apiservices/${API_SERVICE}`);
  await ok(
    "metrics apiservice",
    t.call("POST", "/apis/apiregistration.k8s.io/v1/apiservices", {
      body: {
        metadata: { name: API_SERVICE },
        spec: {
          group: "metrics.k8s.io",
          version: "v1beta1",
          service: { namespace, name: service, port: 443 },
          caBundle: Buffer.from(endpoint.caPem).toString("base64"),
          groupPriorityMinimum: 100,
          versionPriority: 100,
        },
      },
    }),
  );
  await vi.waitFor(
    async () => {
      const r = await t.call("GET", `/apis/apiregistration.k8s.io/v1/apiservices/${API_SERVICE}`);
      const conditions = (r.json?.status?.conditions ?? []) as {
        type: string;
        status: string;
        message?: string;
      }[];
      const available = conditions.find((c) => c.type === "Available");
      if (available?.status !== "True")
        throw new Error(
          `APIService ${API_SERVICE} not available (${available?.message}); without ` +
            "--enable-aggregator-routing=true the aggregator dials the Service's cluster IP",
        );
    },
    { timeout: 30_000, interval: 200 },
  );
  return {
    async close() {
      await t.call("DELETE", `/apis/apiregistration.k8s.io/v1/apiservices/${API_SERVICE}`);
      await endpoint.close();
    },
  };
}
