/** The informer part of the pack-check program: one sync of the ConfigMaps of a namespace. */
import type { Kube } from "@kubesdk/client";
import { Informer } from "@kubesdk/informer";
import { typed } from "./typing.js";

/** Starts an informer on the namespace's ConfigMaps, waits for its first sync, returns the cached names. */
export async function syncedConfigMapKeys(kube: Kube, namespace: string): Promise<string[]> {
  const informer = new Informer(kube.resource("v1", "ConfigMap"), { namespace });
  informer.start();
  try {
    await informer.waitForSync({ timeoutMs: 10_000 });
    return typed(informer.store.keys());
  } finally {
    await informer.stop();
  }
}
