/**
 * How informer events become keys of a controller's primary resource: the primary's own events
 * (its key), owned objects (the key of the controller owner reference that names the primary's
 * group and kind), and other watched resources (a user mapping to keys).
 *
 * Contract: `wire(informer, source, enqueue)` registers one handler; every event that passes the
 * source's predicates enqueues the keys its mapping gives for the new state and, on updates, for
 * the old state too (an owner reference that was removed still reconciles the old owner).
 */
import type { KubernetesObject } from "@kubesdk/models";
import { deletedObject, type Informer, objectKey } from "./informer-source.js";
import { controllerOf, refersTo } from "./owner-references.js";
import { allOf, type CacheEvent, type Predicate } from "./predicates.js";

/** Maps an object of a watched resource to keys of primary objects. */
export type KeyMapper<T> = (obj: T) => readonly string[];

export interface EventSource<T extends KubernetesObject> {
  readonly map: KeyMapper<T>;
  readonly predicates: readonly Predicate<T>[];
  /** Called with a deleted object (primary resource only: remembers the last known state). */
  readonly onDelete?: (obj: T) => void;
}

/** Keys of the primary objects controlling `obj` (namespaced owners share obj's namespace). */
export function ownerKeys(
  primaryApiVersion: string,
  primaryKind: string,
  namespaced: boolean,
): KeyMapper<KubernetesObject> {
  return (obj) => {
    const ref = controllerOf(obj);
    if (ref === undefined || !refersTo(ref, primaryApiVersion, primaryKind)) return [];
    const ns = obj.metadata?.namespace;
    return [namespaced && ns ? `${ns}/${ref.name}` : ref.name];
  };
}

export const ownKey: KeyMapper<KubernetesObject> = (obj) => [objectKey(obj)];

export interface Wiring {
  remove(): void;
}

export function wire<T extends KubernetesObject>(
  informer: Informer<T>,
  source: EventSource<T>,
  enqueue: (key: string) => void,
  name: string,
): Wiring {
  const pass = allOf(...source.predicates);
  const emit = (event: CacheEvent<T>, ...objects: T[]) => {
    if (!pass(event)) return;
    const keys = new Set<string>();
    for (const obj of objects) for (const key of source.map(obj)) keys.add(key);
    for (const key of keys) enqueue(key);
  };
  const registration = informer.addEventHandler(
    {
      add: (object) => emit({ type: "add", object }, object),
      update: (old, object) => emit({ type: "update", old, object }, object, old),
      delete: (gone) => {
        const object = deletedObject(gone);
        source.onDelete?.(object);
        emit({ type: "delete", object }, object);
      },
    },
    { name },
  );
  return { remove: () => registration.remove() };
}
