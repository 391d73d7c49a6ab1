/** Where `kubesdk gen types` reads CRDs from: files, directories, stdin, or a running cluster. */
import { Kube, loadManifests, parseManifests } from "@kubesdk/client";
import type { LoadConnectionOptions } from "@kubesdk/transport";

/** Every object in the YAML or JSON documents of the given files, directories or "-" (stdin). */
export async function readManifestSources(inputs: readonly string[]): Promise<unknown[]> {
  const objects: unknown[] = [];
  for (const input of inputs) {
    if (input === "-") objects.push(...parseManifests(await readStdin(), "<stdin>"));
    else objects.push(...(await loadManifests(input)));
  }
  return objects;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The CustomResourceDefinitions of the cluster the kubeconfig selects. */
export async function readClusterCrds(kubeconfig: LoadConnectionOptions = {}): Promise<unknown[]> {
  const kube = await Kube.fromKubeconfig({ kubeconfig });
  try {
    const list = await kube.resource("apiextensions.k8s.io/v1", "CustomResourceDefinition").list();
    return list.items.map((crd) => ({ ...crd, kind: "CustomResourceDefinition" }));
  } finally {
    await kube.close();
  }
}
