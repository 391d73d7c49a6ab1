/**
 * What a watcher from revision 0 sees of a start: kube-apiserver's own objects, the simulated
 * kubelet's Node, its status and Lease, the controllers' ServiceAccounts and root CA ConfigMaps, then
 * the node lifecycle's untainting of the Ready node, in this order and at these revisions, whether a
 * write goes through the write path or is committed from its template (system-objects.ts,
 * controllers/stored-templates.ts, cluster/node-templates.ts).
 */
import { describe, expect, it } from "vitest";
import { startServer } from "../src/server.js";

const NAMESPACES = ["default", "kube-node-lease", "kube-public", "kube-system"];
const EXPECTED = [
  "ADDED scheduling.k8s.io/priorityclasses system-node-critical",
  "ADDED scheduling.k8s.io/priorityclasses system-cluster-critical",
  "ADDED /namespaces default",
  "ADDED /namespaces kube-system",
  "ADDED /namespaces kube-public",
  "ADDED /namespaces kube-node-lease",
  "ADDED /configmaps kube-system/extension-apiserver-authentication",
  "ADDED /configmaps kube-system/kube-apiserver-legacy-service-account-token-tracking",
  "ADDED /services default/kubernetes",
  "ADDED networking.k8s.io/servicecidrs kubernetes",
  "MODIFIED networking.k8s.io/servicecidrs kubernetes",
  "ADDED /nodes node-1",
  "MODIFIED /nodes node-1",
  "ADDED coordination.k8s.io/leases kube-node-lease/node-1",
  ...NAMESPACES.map((ns) => `ADDED /serviceaccounts ${ns}/default`),
  ...NAMESPACES.map((ns) => `ADDED /configmaps ${ns}/kube-root-ca.crt`),
  "MODIFIED /nodes node-1",
];

describe("a start's own writes", () => {
  it("reach a watcher in kube-apiserver's, the kubelet's and the controllers' order, at consecutive revisions", async () => {
    const server = await startServer();
    try {
      const store = server.store;
      await new Promise<void>((resolve) => {
        if (store.eventsSince(0).length >= EXPECTED.length) return resolve();
        const stop = store.subscribe(() => {
          if (store.eventsSince(0).length < EXPECTED.length) return;
          stop();
          resolve();
        });
      });
      const events = store.eventsSince(0).slice(0, EXPECTED.length);
      expect(events.map((e) => `${e.type} ${e.bucket} ${e.key}`)).toEqual(EXPECTED);
      const revisions = events.map((e) => Number(e.object.metadata.resourceVersion));
      expect(revisions).toEqual(EXPECTED.map((_, i) => (revisions[0] ?? 0) + i));
    } finally {
      await server.stop();
    }
  });
});
