/**
 * The facade part of the pack-check program: the `kubesdk` root with a sub-path of each kind, as a
 * user writes them — `Kube` and kinds from the root, group namespaces and option types from
 * sub-paths.
 */
import { InformerFactory, isNotFound, Kube, type ConfigMap as RootConfigMap } from "kubesdk";
import type { ListOptions } from "kubesdk/client";
import type { coreV1 } from "kubesdk/models";
import { WorkQueue } from "kubesdk/runtime";
import { check, typed } from "./typing.js";

/** Lists and caches the namespace's ConfigMaps through the facade; returns the cached keys. */
export async function facadeConfigMapKeys(kubeconfigText: string, namespace: string): Promise<string[]> {
  const kube = await Kube.fromKubeconfigText(kubeconfigText, { namespace });
  const informers = new InformerFactory(kube);
  try {
    const options: ListOptions = { limit: 10 };
    const listed: RootConfigMap[] = typed((await kube.resource("v1", "ConfigMap").list(options)).items);
    const same: coreV1.ConfigMap[] = listed;
    const missing = await kube
      .resource("v1", "ConfigMap")
      .get("no-such-map")
      .catch((err: unknown) => err);
    check(isNotFound(missing), "a missing ConfigMap is NotFound through the root's predicate");
    const queue = new WorkQueue<string>();
    for (const cm of same) queue.add(cm.metadata?.name ?? "");
    check(
      queue.length === new Set(same.map((cm) => cm.metadata?.name)).size,
      "the runtime's work queue holds one key per ConfigMap",
    );
    queue.shutDown();
    const informer = informers.informer("v1", "ConfigMap");
    informers.start();
    await informers.waitForSync({ timeoutMs: 10_000 });
    return typed(informer.store.keys());
  } finally {
    await informers.stop();
    await kube.close();
  }
}
