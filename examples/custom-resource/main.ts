// Installs a CustomResourceDefinition, then creates, lists and patches its objects with a typed client.
import { established, isNotFound, Kube, type KubernetesObject } from "kubesdk";

interface CronTab extends KubernetesObject {
  apiVersion?: "stable.example.com/v1";
  kind?: "CronTab";
  spec?: { cronSpec?: string; image?: string; replicas?: number };
}

const kube = await Kube.fromKubeconfig();
const crds = kube.resource("apiextensions.k8s.io/v1", "CustomResourceDefinition");

await crds.create({
  metadata: { name: "crontabs.stable.example.com" },
  spec: {
    group: "stable.example.com",
    scope: "Namespaced",
    names: { plural: "crontabs", singular: "crontab", kind: "CronTab", listKind: "CronTabList" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                properties: {
                  cronSpec: { type: "string" },
                  image: { type: "string" },
                  replicas: { type: "integer", minimum: 1 },
                },
              },
            },
          },
        },
      },
    ],
  },
});

// Wait until the API server reports the definition Established (it then serves the new resource):
// a list, then a watch from its resourceVersion.
await kube.waitFor(crds, "crontabs.stable.example.com", established(), { timeoutMs: 30_000 });

// A typed client: you describe the resource and supply the object type.
const cronTabs = kube.custom<CronTab>({
  group: "stable.example.com",
  version: "v1",
  plural: "crontabs",
  kind: "CronTab",
  namespaced: true,
});

await cronTabs.create({
  apiVersion: "stable.example.com/v1",
  kind: "CronTab",
  metadata: { name: "nightly" },
  spec: { cronSpec: "0 3 * * *", image: "backup:1", replicas: 1 },
});
await cronTabs.patch("nightly", { type: "merge", patch: { spec: { replicas: 2 } } });
const all = await cronTabs.list();
for (const ct of all.items) console.log(ct.metadata?.name, ct.spec?.cronSpec, "replicas:", ct.spec?.replicas);
if (all.items[0]?.spec?.replicas !== 2) throw new Error("patch did not apply");

// The same resource through discovery, by its kubectl-style name.
const discovered = await kube.discover("crontabs.stable.example.com");
console.log("discovered:", (await discovered.list()).items.length, "object(s)");

await cronTabs.delete("nightly");
await crds.delete("crontabs.stable.example.com");
try {
  await cronTabs.get("nightly");
} catch (err) {
  if (!isNotFound(err)) throw err;
  console.log("gone");
}
await kube.close();
