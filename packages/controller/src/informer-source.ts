/**
 * The one module that constructs informer factories and informers. Everything else in
 * @kubesdk/controller uses only `Informer`'s `addEventHandler`, `store`, `hasSynced`, `waitForSync`,
 * `start` and `stop`, so a change of the informer package's construction API touches this file alone.
 *
 * Contract: no state of its own — the factory is the caller's (a Manager owns one, shared by its
 * controllers: one list+watch per resource and scope). `informerFor(factory, resource, scope)` is
 * that factory's shared informer; `scope.namespace` undefined means every namespace.
 */
import type { LabelSelector, ResourceClient } from "@kubesdk/client";
import { deletedObject, type Informer, InformerFactory, objectKey } from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import { ControllerError } from "./errors.js";

export { deletedObject, type Informer, InformerFactory, objectKey };

/** Which objects of a resource a controller watches. */
export interface WatchScope {
  /** Only this namespace; undefined = every namespace (cluster-scoped resources take none). */
  readonly namespace?: string;
  readonly labelSelector?: LabelSelector;
}

// biome-ignore lint/suspicious/noExplicitAny: any list type fits; only the target is read.
export type AnyResourceClient<T extends KubernetesObject> = ResourceClient<T, any>;

/** The factory's shared informer for `resource` in `scope`. */
export function informerFor<T extends KubernetesObject>(
  factory: InformerFactory,
  resource: AnyResourceClient<T>,
  scope: WatchScope = {},
): Informer<T> {
  const t = resource.target;
  if (t.kind === undefined)
    throw new ControllerError(
      "INVALID_DECLARATION",
      `the resource ${t.plural}.${t.group} has no kind; declare it with kind for a controller to watch it`,
    );
  const where = !t.namespaced
    ? {}
    : scope.namespace !== undefined
      ? { namespace: scope.namespace }
      : { allNamespaces: true };
  return factory.informerFor<T>(resource, {
    ...where,
    ...(scope.labelSelector !== undefined ? { labelSelector: scope.labelSelector } : {}),
  });
}
