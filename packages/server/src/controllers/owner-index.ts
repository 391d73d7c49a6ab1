/**
 * Dependents by owner uid, kept up to date from store events, so the garbage
 * collector finds an owner's dependents without scanning the store.
 */
import type { MvccStore, StoredObject, StoreEvent } from "../storage/mvcc.js";

export interface ObjectRef {
  readonly bucket: string;
  readonly key: string;
}

export interface OwnerRef {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly blockOwnerDeletion?: boolean;
}

export function ownerRefsOf(obj: StoredObject | null | undefined): OwnerRef[] {
  const refs = obj?.metadata.ownerReferences;
  return Array.isArray(refs) ? (refs as OwnerRef[]) : [];
}

const refId = (ref: ObjectRef): string => `${ref.bucket}\u0000${ref.key}`;

export class OwnerIndex {
  private readonly byOwner = new Map<string, Map<string, ObjectRef>>();
  private readonly byUid = new Map<string, ObjectRef>();

  constructor(store: MvccStore, buckets: Iterable<string>) {
    // A start has objects in a handful of its seventy buckets: a list of each empty one was most of
    // the garbage collector's start (docs/performance-history.md, session 22).
    for (const bucket of buckets) {
      if (store.count(bucket) === 0) continue;
      for (const obj of store.list(bucket).items) this.add({ bucket, key: keyOf(obj) }, obj);
    }
  }

  /** Applies one store event. */
  onEvent(e: StoreEvent): void {
    const ref = { bucket: e.bucket, key: e.key };
    if (e.prev) this.remove(ref, e.prev);
    if (e.type !== "DELETED") this.add(ref, e.object);
    else this.remove(ref, e.object);
    const uid = e.object.metadata.uid;
    if (typeof uid !== "string") return;
    if (e.type === "DELETED") this.byUid.delete(uid);
    else this.byUid.set(uid, ref);
  }

  /** Where the object with this uid is stored, if it exists. */
  find(uid: string): ObjectRef | undefined {
    return this.byUid.get(uid);
  }

  /** Every uid some stored object names as its owner. */
  ownerUids(): string[] {
    return [...this.byOwner.keys()];
  }

  dependentsOf(uid: string): ObjectRef[] {
    return [...(this.byOwner.get(uid)?.values() ?? [])];
  }

  private add(ref: ObjectRef, obj: StoredObject): void {
    if (typeof obj.metadata.uid === "string") this.byUid.set(obj.metadata.uid, ref);
    for (const o of ownerRefsOf(obj)) {
      if (typeof o.uid !== "string") continue;
      let set = this.byOwner.get(o.uid);
      if (!set) {
        set = new Map();
        this.byOwner.set(o.uid, set);
      }
      set.set(refId(ref), ref);
    }
  }

  private remove(ref: ObjectRef, obj: StoredObject): void {
    for (const o of ownerRefsOf(obj)) {
      if (typeof o.uid !== "string") continue;
      const set = this.byOwner.get(o.uid);
      set?.delete(refId(ref));
      if (set?.size === 0) this.byOwner.delete(o.uid);
    }
  }
}

function keyOf(obj: StoredObject): string {
  const m = obj.metadata as { namespace?: string; name?: string };
  return m.namespace ? `${m.namespace}/${m.name}` : String(m.name);
}
