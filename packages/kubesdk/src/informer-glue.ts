/**
 * The one place the facade builds informers. `Kube` calls only these two functions, so switching
 * to a different InformerFactory construction API changes this file alone.
 *
 * Today's @kubesdk/informer: `new InformerFactory(transport)` and `informerFor(target, scope)`, where
 * an omitted namespace means every namespace. The facade keeps the client's rule: an omitted
 * namespace is the client's default namespace, `allNamespaces: true` is every namespace.
 * With `new InformerFactory(client)` and `factory.informer(apiVersion, kind, scope)` (where the
 * informer applies that namespace rule itself), the file body becomes:
 *
 *   export type KubeInformerScope = InformerScope;
 *   export function createInformerFactory(client: KubeClient, defaults?: SharedInformerOptions) {
 *     return new InformerFactory(client, defaults);
 *   }
 *   export function sharedInformer<AV extends BuiltinApiVersion, K extends BuiltinResourceKind<AV>>(
 *     factory: InformerFactory, _client: KubeClient, apiVersion: AV, kind: K, scope?: KubeInformerScope,
 *   ): Informer<BuiltinObject<AV, K>> {
 *     return factory.informer(apiVersion, kind, scope);
 *   }
 */
import type { BuiltinApiVersion, BuiltinObject, BuiltinResourceKind, KubeClient } from "@kubesdk/client";
import {
  type Informer,
  InformerFactory,
  type InformerScope,
  type SharedInformerOptions,
} from "@kubesdk/informer";
import { parseApiVersion, registry } from "@kubesdk/models";

/** Which objects a shared informer caches; namespaces follow the client's rule. */
export interface KubeInformerScope extends InformerScope {
  /** Every namespace (a namespaced resource's `namespace` defaults to the client's). */
  readonly allNamespaces?: boolean;
}

/** The informer factory a `Kube` shares between everything that watches through it. */
export function createInformerFactory(client: KubeClient, defaults?: SharedInformerOptions): InformerFactory {
  return new InformerFactory(client.transport, defaults);
}

/** The factory's shared informer for a built-in kind (one per resource and scope). */
export function sharedInformer<AV extends BuiltinApiVersion, K extends BuiltinResourceKind<AV>>(
  factory: InformerFactory,
  client: KubeClient,
  apiVersion: AV,
  kind: K,
  scope: KubeInformerScope = {},
): Informer<BuiltinObject<AV, K>> {
  const { group, version } = parseApiVersion(apiVersion);
  const target = registry.lookup({ group, version, kind });
  if (target === undefined) {
    // Unreachable through the types; reached with casts. Resolving by name reports it.
    return factory.informerFor(`${kind}.${version}.${group}`, scope);
  }
  const { allNamespaces, ...rest } = scope;
  const namespace = !target.namespaced || allNamespaces ? undefined : (scope.namespace ?? client.namespace);
  return factory.informerFor<BuiltinObject<AV, K>>(target, { ...rest, namespace });
}
