// Lists config maps, then watches from the list's resourceVersion and prints the changes it sees.
import { Kube } from "kubesdk";

const kube = await Kube.fromKubeconfig(); // $KUBECONFIG, like kubectl
const configMaps = kube.resource("v1", "ConfigMap");

await configMaps.create({ metadata: { name: "first", labels: { app: "demo" } }, data: { n: "1" } });
const list = await configMaps.list({ labelSelector: { app: "demo" } });
console.log(`listed ${list.items.length} config map(s) at resourceVersion ${list.metadata?.resourceVersion}`);

// Watching from the list's resourceVersion sees every change after the list, none twice.
const watch = configMaps.watch({
  labelSelector: { app: "demo" },
  resourceVersion: list.metadata?.resourceVersion,
  allowWatchBookmarks: true,
});

// Make three changes; the watch reports them in order.
await configMaps.create({ metadata: { name: "second", labels: { app: "demo" } }, data: { n: "2" } });
await configMaps.patch("first", { type: "merge", patch: { data: { n: "10" } } });
await configMaps.delete("second");

const seen: string[] = [];
for await (const event of watch) {
  if (event.type === "BOOKMARK") continue; // a progress marker, not a change
  seen.push(`${event.type} ${event.object.metadata?.name}`);
  console.log(event.type, event.object.metadata?.name, event.object.data);
  if (seen.length === 3) break; // `break` closes the watch
}

const expected = ["ADDED second", "MODIFIED first", "DELETED second"];
if (seen.join(",") !== expected.join(",")) throw new Error(`unexpected events: ${seen.join(", ")}`);
await configMaps.delete("first");
await kube.close();
