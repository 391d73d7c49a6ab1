// The kubesdk side of controller-vs-runtime.ts, in its own process and in plain JavaScript against
// the built packages (dist/, as a user's controller runs; the parent builds them first), so the
// TypeScript loader's memory is not counted: a Manager with one controller caching the Widgets of one namespace and,
// for each, merge-patching status.observedGeneration to the object's generation, as
// controller-runtime-go/main.go does. Prints one JSON line once every object was reconciled (time
// since this script started running, after its imports; peak RSS from /proc/self/status VmHWM),
// then exits.
//
// Usage: node controller-vs-runtime-child.mjs <kubeconfig> <namespace> <objects> <concurrency>
import { readFileSync } from "node:fs";
import { KubeClient } from "@kubesdk/client";
import { generationChanged, Manager, silentLogger } from "@kubesdk/controller";

const t0 = performance.now();
const [kubeconfig, namespace, objects, concurrency] = process.argv.slice(2);
const want = Number(objects);

function peakRssMiB() {
  const line = readFileSync("/proc/self/status", "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmHWM:"));
  return Number(line?.split(/\s+/)[1] ?? Number.NaN) / 1024;
}

const kube = await KubeClient.fromKubeconfig({ kubeconfig: { path: kubeconfig } });
// The same resource as widget-workload.ts's widgets().
const resource = kube.custom({
  group: "bench.kubesdk.io",
  version: "v1",
  plural: "widgets",
  kind: "Widget",
  namespaced: true,
  subresources: ["status"],
});
const done = new Set();
let all = () => {};
const finished = new Promise((resolve) => {
  all = resolve;
});
// A manager owns the wiring (informer factory, clock, logger), as controller-runtime's does.
const manager = new Manager({ kube, logger: silentLogger });
manager.controller({
  name: "widgets",
  resource,
  namespace,
  concurrency: Number(concurrency),
  predicates: [generationChanged()],
  reconcile: async ({ key, name, object }) => {
    if (object === undefined) return undefined;
    const observedGeneration = object.metadata?.generation ?? 0;
    await resource.status.patch(
      name,
      { type: "merge", patch: { status: { observedGeneration } } },
      { namespace },
    );
    done.add(key);
    if (done.size === want) all();
    return undefined;
  },
});
await manager.start();
await finished;
console.log(JSON.stringify({ ms: performance.now() - t0, peakRssMiB: peakRssMiB() }));
process.exit(0);
