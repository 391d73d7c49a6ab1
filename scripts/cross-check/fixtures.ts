/**
 * The objects the scenario creates. They are written to a scratch directory as
 * JSON files so kubectl (`create -f`) and the Python client (which loads them)
 * send the very same objects.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

export const configMapName = "cm1";
export const deploymentName = "web";
export const labelSelector = "app=cross-check";

/** Each client gets its own namespace, so both can run against one server. */
export const namespaceFor = (client: string) => `cross-check-${client}`;

const objects = {
  "configmap.json": {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: configMapName, labels: { app: "cross-check" } },
    data: { a: "1" },
  },
  "deployment.json": {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: deploymentName, labels: { app: "cross-check" } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "cross-check" } },
      template: {
        metadata: { labels: { app: "cross-check" } },
        spec: { containers: [{ name: "nginx", image: "nginx:1.27", ports: [{ containerPort: 80 }] }] },
      },
    },
  },
} as const;

/** Names shared by both clients' scenarios; a difference is reported as `<client>/<step>/<path>`. */
export const steps = [
  "validate-with-openapi",
  "create-namespace-protobuf",
  "create-namespace",
  "create-configmap",
  "get-configmap",
  "list-configmaps-by-label",
  "patch-configmap-merge",
  "replace-configmap-stale",
  "delete-configmap",
  "list-configmaps-after-delete",
  "create-deployment",
  "get-deployment",
] as const;
export type StepName = (typeof steps)[number];

/** Writes namespace.json (for `namespace`) and the other manifests into `dir`. */
export async function writeFixtures(dir: string, namespace: string): Promise<void> {
  const all = {
    "namespace.json": { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } },
    ...objects,
  };
  for (const [file, object] of Object.entries(all)) {
    await writeFile(join(dir, file), `${JSON.stringify(object, null, 2)}\n`);
  }
}
