/**
 * Finalizers: hold an object's deletion until the controller has cleaned up after it.
 *
 * Contract of {@link withFinalizer}: for an object not being deleted, the finalizer is added first
 * (a merge patch guarded by the object's resourceVersion, so a stale cache fails with a conflict
 * instead of overwriting), then `apply` runs on the updated object. For an object being deleted
 * that carries the finalizer, `cleanup` runs and only when it succeeds is the finalizer removed
 * (again guarded by resourceVersion); a throwing cleanup leaves the finalizer in place, so the
 * deletion waits and the error policy retries. An object being deleted without the finalizer is
 * left alone. Every write is fenced: given the reconcile request (a {@link Fence}), a write is
 * refused with its typed error once the fence has lapsed; a bare signal is only checked.
 */
import type { KubernetesObject } from "@kubesdk/models";
import { type Fence, passFence } from "./fence.js";
import type { AnyResourceClient } from "./informer-source.js";
import type { ReconcileAction } from "./reconcile.js";

export function hasFinalizer(obj: KubernetesObject, finalizer: string): boolean {
  return obj.metadata?.finalizers?.includes(finalizer) === true;
}

export function isBeingDeleted(obj: KubernetesObject): boolean {
  return obj.metadata?.deletionTimestamp != null;
}

async function setFinalizers<T extends KubernetesObject>(
  resource: AnyResourceClient<T>,
  obj: T,
  finalizers: string[],
  fence: Fence | AbortSignal | undefined,
): Promise<T> {
  const signal = passFence(fence);
  const metadata = { finalizers, resourceVersion: obj.metadata?.resourceVersion ?? null };
  return resource.patch(
    obj.metadata?.name ?? "",
    { type: "merge", patch: { metadata } as never },
    {
      ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}),
      ...(signal ? { signal } : {}),
    },
  );
}

/** Adds `finalizer` (no-op if present); returns the updated object. */
export async function addFinalizer<T extends KubernetesObject>(
  resource: AnyResourceClient<T>,
  obj: T,
  finalizer: string,
  fence?: Fence | AbortSignal,
): Promise<T> {
  if (hasFinalizer(obj, finalizer)) return obj;
  return setFinalizers(resource, obj, [...(obj.metadata?.finalizers ?? []), finalizer], fence);
}

/** Removes `finalizer` (no-op if absent); returns the updated object. */
export async function removeFinalizer<T extends KubernetesObject>(
  resource: AnyResourceClient<T>,
  obj: T,
  finalizer: string,
  fence?: Fence | AbortSignal,
): Promise<T> {
  if (!hasFinalizer(obj, finalizer)) return obj;
  const rest = (obj.metadata?.finalizers ?? []).filter((f) => f !== finalizer);
  return setFinalizers(resource, obj, rest, fence);
}

export interface FinalizerHandlers<T> {
  /** The normal reconcile, on an object that carries the finalizer. */
  apply(obj: T): Promise<ReconcileAction | undefined> | ReconcileAction | undefined;
  /** Cleanup of everything the controller made outside the object's owner references. */
  cleanup(obj: T): Promise<void> | void;
}

export async function withFinalizer<T extends KubernetesObject>(
  resource: AnyResourceClient<T>,
  obj: T,
  finalizer: string,
  handlers: FinalizerHandlers<T>,
  fence?: Fence | AbortSignal,
): Promise<ReconcileAction | undefined> {
  if (isBeingDeleted(obj)) {
    if (!hasFinalizer(obj, finalizer)) return undefined;
    await handlers.cleanup(obj);
    await removeFinalizer(resource, obj, finalizer, fence);
    return undefined;
  }
  const updated = await addFinalizer(resource, obj, finalizer, fence);
  return handlers.apply(updated);
}
