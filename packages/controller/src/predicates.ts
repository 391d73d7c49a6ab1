/**
 * Predicates decide which informer events reach a controller's queue.
 *
 * Contract: a predicate is called with the event and returns whether the controller should
 * enqueue for it. A controller applies its predicates with AND; {@link anyOf} combines with OR.
 * `update` events carry the previous and the new state; `add` and `delete` carry one object.
 */
import type { KubernetesObject } from "@kubesdk/models";

/** A change the informer cache saw, as predicates receive it. */
export type CacheEvent<T> =
  | { readonly type: "add"; readonly object: T }
  | { readonly type: "update"; readonly old: T; readonly object: T }
  | { readonly type: "delete"; readonly object: T };

export type Predicate<T> = (event: CacheEvent<T>) => boolean;

function onUpdate<T>(changed: (old: T, now: T) => boolean): Predicate<T> {
  return (e) => e.type !== "update" || changed(e.old, e.object);
}

function sameRecord(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ea = Object.entries(a ?? {});
  if (ea.length !== Object.keys(b ?? {}).length) return false;
  return ea.every(([k, v]) => b?.[k] === v);
}

/** Updates pass only when `metadata.generation` changed (spec changes; status writes don't pass). */
export function generationChanged<T extends KubernetesObject>(): Predicate<T> {
  return onUpdate((old, now) => old.metadata?.generation !== now.metadata?.generation);
}

/** Updates pass only when the labels changed. */
export function labelsChanged<T extends KubernetesObject>(): Predicate<T> {
  return onUpdate((old, now) => !sameRecord(old.metadata?.labels, now.metadata?.labels));
}

/** Updates pass only when the annotations changed. */
export function annotationsChanged<T extends KubernetesObject>(): Predicate<T> {
  return onUpdate((old, now) => !sameRecord(old.metadata?.annotations, now.metadata?.annotations));
}

/** Updates pass only when the resourceVersion changed (drops periodic informer resyncs). */
export function resourceVersionChanged<T extends KubernetesObject>(): Predicate<T> {
  return onUpdate((old, now) => old.metadata?.resourceVersion !== now.metadata?.resourceVersion);
}

/** Passes when any of `predicates` passes. */
export function anyOf<T>(...predicates: Predicate<T>[]): Predicate<T> {
  return (e) => predicates.some((p) => p(e));
}

/** Passes when every one of `predicates` passes (an empty list passes everything). */
export function allOf<T>(...predicates: readonly Predicate<T>[]): Predicate<T> {
  return (e) => predicates.every((p) => p(e));
}
