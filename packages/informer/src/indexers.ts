/** Ready-made index functions. The namespace index is installed on every informer by default. */
import type { KubernetesObject } from "@kubesdk/models";
import type { IndexFunc } from "./index-func.js";

/** Name of the default index: objects by `metadata.namespace` ("" for cluster-scoped objects). */
export const NAMESPACE_INDEX = "namespace";

export const byNamespace: IndexFunc<KubernetesObject> = (obj) => [obj.metadata?.namespace ?? ""];

/** Objects by the value of one label; objects without the label are not indexed. */
export function byLabel(label: string): IndexFunc<KubernetesObject> {
  return (obj) => {
    const labels = obj.metadata?.labels;
    // Own labels only: "constructor" is not a label an object has unless it has it.
    return labels && Object.hasOwn(labels, label) ? [labels[label] as string] : [];
  };
}

/** Objects by the uid of each owner reference. */
export const byOwnerUid: IndexFunc<KubernetesObject> = (obj) =>
  (obj.metadata?.ownerReferences ?? []).map((ref) => ref.uid);

/** Pods (or anything with `spec.nodeName`) by node; unscheduled objects are not indexed. */
export const byNodeName: IndexFunc<KubernetesObject> = (obj) => {
  const node = (obj as { spec?: { nodeName?: unknown } }).spec?.nodeName;
  return typeof node === "string" && node !== "" ? [node] : [];
};
