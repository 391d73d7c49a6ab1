// An informer cache of pods with an extra index (pods by node), queried without calling the server.
import { InformerFactory, isDeletedFinalStateUnknown, Kube, type Pod } from "kubesdk";
import { byNodeName } from "kubesdk/informer";

const kube = await Kube.fromKubeconfig();
const pods = kube.resource("v1", "Pod");

function pod(name: string, nodeName: string): Pod {
  return {
    metadata: { name, labels: { app: "web" } },
    spec: { nodeName, containers: [{ name: "web", image: "nginx:1.27" }] },
  };
}
for (const [name, node] of [
  ["web-1", "node-a"],
  ["web-2", "node-a"],
  ["web-3", "node-b"],
] as const) {
  await pods.create(pod(name, node));
}

// The shared informer for pods in the client's namespace; indexes are added before it starts.
const informers = new InformerFactory(kube);
const informer = informers.informer("v1", "Pod", { labelSelector: { app: "web" } });
informer.addIndexers({ byNode: byNodeName });
informer.addEventHandler({
  add: (p, { isInInitialList }) =>
    console.log("add", p.metadata?.name, isInInitialList ? "(initial list)" : ""),
  delete: (p) => console.log("delete", isDeletedFinalStateUnknown(p) ? p.key : p.metadata?.name),
});
informers.start();
await informers.waitForSync({ timeoutMs: 30_000 });

const onA = informer.store
  .byIndex("byNode", "node-a")
  .map((p) => p.metadata?.name)
  .sort();
const onB = informer.store.byIndex("byNode", "node-b").map((p) => p.metadata?.name);
console.log("node-a:", onA.join(", "), "| node-b:", onB.join(", "));
console.log("cached keys:", informer.store.keys().sort().join(", "));
if (onA.join() !== "web-1,web-2" || onB.join() !== "web-3") throw new Error("index does not match");

for (const name of ["web-1", "web-2", "web-3"]) await pods.delete(name, { gracePeriodSeconds: 0 });
await informers.stop();
await kube.close();
