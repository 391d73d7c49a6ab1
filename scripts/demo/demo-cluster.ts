/**
 * The cluster the informer demo runs against: the embedded reference server (with its fault
 * controls) or a real cluster from a kubeconfig (no faults; the demo works in a namespace of its own
 * and deletes it at the end). Writes go through @kubesdk/transport.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kube } from "@kubesdk/client";
import type { KubernetesObject } from "@kubesdk/models";
import { type FaultController, type RunningServer, startServer } from "@kubesdk/server";
import { createTransport, type HttpTransport, loadClusterConnection } from "@kubesdk/transport";

export interface DemoCluster {
  readonly description: string;
  readonly transport: HttpTransport;
  /** A client whose default namespace is the demo's. */
  readonly kube: Kube;
  readonly namespace: string;
  /** Fault controls; undefined on a real cluster. */
  readonly faults: FaultController | undefined;
  create(name: string, data: Record<string, string>): Promise<KubernetesObject>;
  update(name: string, data: Record<string, string>): Promise<KubernetesObject>;
  remove(name: string): Promise<void>;
  /** name → resourceVersion of every ConfigMap in the namespace. */
  state(): Promise<Map<string, string>>;
  close(): Promise<void>;
}

/** The label every ConfigMap the demo writes carries; the informer selects by it. */
export const DEMO_LABEL = "demo.kubesdk.dev/informer";

export async function openDemoCluster(options: {
  real: boolean;
  kubeconfig: string | undefined;
}): Promise<DemoCluster> {
  let server: RunningServer | undefined;
  let kubeconfig = options.kubeconfig;
  if (!options.real) {
    server = await startServer();
    kubeconfig = join(mkdtempSync(join(tmpdir(), "kubesdk-demo-")), "kubeconfig");
    writeFileSync(kubeconfig, server.kubeconfig, { mode: 0o600 });
  }
  const connection = await loadClusterConnection({
    ...(kubeconfig ? { path: kubeconfig } : {}),
    inCluster: false,
  });
  const transport = createTransport(connection);
  const namespace = `kubesdk-informer-demo-${Date.now().toString(36)}`;
  const base = `/api/v1/namespaces/${namespace}/configmaps`;
  // The demo watches only its own ConfigMaps: a cluster adds others to every namespace
  // (kube-root-ca.crt, from kube-controller-manager's root CA publisher or the embedded server's).
  const labels = { [DEMO_LABEL]: "yes" };
  const selected = `${base}?labelSelector=${encodeURIComponent(`${DEMO_LABEL}=yes`)}`;
  await transport.requestJson({
    method: "POST",
    path: "/api/v1/namespaces",
    body: { metadata: { name: namespace } },
  });
  const body = async (p: Promise<{ body: unknown }>) => (await p).body as KubernetesObject;

  return {
    description: server ? `embedded reference server at ${server.url}` : `cluster ${connection.server}`,
    transport,
    kube: new Kube(transport, { namespace }),
    namespace,
    faults: server?.faults,
    create: (name, data) =>
      body(transport.requestJson({ method: "POST", path: base, body: { metadata: { name, labels }, data } })),
    update: (name, data) =>
      body(
        transport.requestJson({
          method: "PATCH",
          path: `${base}/${name}`,
          body: { data },
          contentType: "application/merge-patch+json",
        }),
      ),
    remove: async (name) => {
      await transport.request({ method: "DELETE", path: `${base}/${name}` });
    },
    state: async () => {
      const list = await body(transport.requestJson({ method: "GET", path: selected }));
      const items = (list as unknown as { items: KubernetesObject[] }).items;
      return new Map(items.map((o) => [o.metadata?.name ?? "", o.metadata?.resourceVersion ?? ""]));
    },
    close: async () => {
      try {
        if (options.real)
          await transport.request({ method: "DELETE", path: `/api/v1/namespaces/${namespace}` });
      } finally {
        await transport.close();
        await server?.stop();
      }
    },
  };
}
