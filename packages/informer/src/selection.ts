import type { FieldSelector, LabelSelector } from "@kubesdk/client";

/**
 * Which objects of the resource an informer caches. The namespace rule is the client's: a
 * namespaced resource without `namespace` is read in the client's default namespace,
 * `allNamespaces: true` reads every namespace, and cluster-scoped resources take neither.
 */
export interface InformerSelection {
  readonly namespace?: string;
  readonly allNamespaces?: boolean;
  readonly labelSelector?: LabelSelector;
  readonly fieldSelector?: FieldSelector;
}
