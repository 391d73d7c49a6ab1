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
import { expectOk, requirePodAddress } from "./kubelet.js";
import { createServiceEndpoint } from "./service-endpoint.js";
import type { TestTarget } from "./target.js";

const API_SERVICE = "v1beta1.metrics.k8s.io";

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
  const port = { name: "https", port: 443 };
  await createServiceEndpoint(t, { namespace, name: service, port, ip: host, targetPort: endpoint.port });
  await t.call("DELETE", `/apis/apiregistration.k8s.io/v1/apiservices/${API_SERVICE}`);
  await expectOk(
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
  await waitAvailable(t);
  return {
    async close() {
      await t.call("DELETE", `/apis/apiregistration.k8s.io/v1/apiservices/${API_SERVICE}`);
      await endpoint.close();
    },
  };
}

async function waitAvailable(t: TestTarget): Promise<void> {
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
}
