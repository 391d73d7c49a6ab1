/** Finalizer removal shared by the controllers that hold objects back from deletion. */
import type { MvccStore, StoredObject } from "../storage/mvcc.js";

export const finalizersOf = (o: StoredObject): string[] =>
  (o.metadata.finalizers as string[] | undefined) ?? [];

/**
 * Drops `finalizer` from the object at `bucket`/`key`; the object goes when it was being deleted
 * with no grace left and that was its last finalizer, as the API server would remove it.
 */
export function dropFinalizer(
  store: Pick<MvccStore, "get" | "update" | "delete">,
  bucket: string,
  key: string,
  finalizer: string,
): void {
  const obj = store.get(bucket, key);
  if (!obj) return;
  const finalizers = finalizersOf(obj).filter((f) => f !== finalizer);
  if (finalizers.length === 0 && Number(obj.metadata.deletionGracePeriodSeconds ?? 0) === 0) {
    store.delete(bucket, key);
    return;
  }
  const metadata: Record<string, unknown> = { ...obj.metadata, finalizers };
  if (finalizers.length === 0) delete metadata.finalizers;
  store.update(bucket, key, { ...obj, metadata } as StoredObject);
}
