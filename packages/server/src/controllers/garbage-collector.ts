/**
 * The reference server's stand-in for kube-controller-manager's garbage
 * collector (switched off with `controllers: false`): when an owner goes, its
 * dependents go too (or lose the reference while another owner remains); an
 * owner deleted with the Orphan policy releases its dependents and then its
 * `orphan` finalizer; one deleted in the Foreground deletes its dependents and
 * keeps `foregroundDeletion` until no dependent blocking it is left.
 */
import { StatusError } from "../api/status.js";
import type { HandlerContext } from "../handlers/context.js";
import { deleteObject } from "../handlers/delete.js";
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from "../handlers/delete-policy.js";
import type { ServedResource } from "../resources/served.js";
import type { StoredObject, StoreEvent } from "../store/mvcc.js";
import { type ObjectRef, OwnerIndex, ownerRefsOf } from "./owner-index.js";

const finalizersOf = (o: StoredObject): string[] => (o.metadata.finalizers as string[] | undefined) ?? [];
const uidOf = (o: StoredObject): string => String(o.metadata.uid);

export class GarbageCollector {
  private readonly index: OwnerIndex;
  private readonly byBucket = new Map<string, ServedResource>();
  private readonly pending = new Set<string>();
  private scheduled = false;
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: HandlerContext) {
    for (const r of ctx.resources.all()) if (!this.byBucket.has(r.bucket)) this.byBucket.set(r.bucket, r);
    this.index = new OwnerIndex(ctx.store, this.byBucket.keys());
    this.unsubscribe = ctx.store.subscribe((e) => this.onEvent(e));
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
  }

  private onEvent(e: StoreEvent): void {
    this.index.onEvent(e);
    const fins = finalizersOf(e.object);
    if (e.type === "DELETED") {
      this.queue(uidOf(e.object));
      // A dependent gone may unblock an owner waiting in the foreground.
      for (const ref of ownerRefsOf(e.object)) if (ref.uid) this.queue(ref.uid);
    } else if (
      e.object.metadata.deletionTimestamp !== undefined &&
      (fins.includes(ORPHAN_FINALIZER) || fins.includes(FOREGROUND_FINALIZER))
    )
      this.queue(uidOf(e.object));
  }

  private queue(uid: string): void {
    this.pending.add(uid);
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.closed) return;
      const uids = [...this.pending];
      this.pending.clear();
      for (const uid of uids) this.process(uid);
    });
  }

  private process(uid: string): void {
    const at = this.index.find(uid);
    const owner = at ? this.ctx.store.get(at.bucket, at.key) : undefined;
    const dependents = this.index.dependentsOf(uid);
    if (!owner || !at) {
      this.ownerGone(uid, dependents);
      return;
    }
    if (owner.metadata.deletionTimestamp === undefined) return;
    const fins = finalizersOf(owner);
    if (fins.includes(ORPHAN_FINALIZER)) {
      for (const d of dependents) this.dropOwnerRef(d, uid);
      this.dropFinalizer(at, ORPHAN_FINALIZER);
      return;
    }
    if (!fins.includes(FOREGROUND_FINALIZER)) return;
    let blocking = 0;
    for (const d of dependents) {
      const dep = this.ctx.store.get(d.bucket, d.key);
      if (!dep) continue;
      if (ownerRefsOf(dep).some((o) => o.uid === uid && o.blockOwnerDeletion === true)) blocking++;
      if (dep.metadata.deletionTimestamp === undefined) this.deleteDependent(d, "Foreground");
    }
    if (blocking === 0) this.dropFinalizer(at, FOREGROUND_FINALIZER);
  }

  /** The owner is gone: dependents with another owner left lose the reference, the rest are deleted. */
  private ownerGone(uid: string, dependents: readonly ObjectRef[]): void {
    for (const d of dependents) {
      const dep = this.ctx.store.get(d.bucket, d.key);
      if (!dep) continue;
      const others = ownerRefsOf(dep).filter((o) => o.uid !== uid && o.uid && this.index.find(o.uid));
      if (others.length > 0) this.dropOwnerRef(d, uid);
      else if (dep.metadata.deletionTimestamp === undefined) this.deleteDependent(d, "Background");
    }
  }

  private deleteDependent(d: ObjectRef, propagationPolicy: string): void {
    const r = this.byBucket.get(d.bucket);
    const obj = this.ctx.store.get(d.bucket, d.key);
    if (!r || !obj) return;
    const m = obj.metadata as { namespace?: string; name?: string };
    try {
      deleteObject(this.ctx, r, m.namespace, String(m.name), { dryRun: false, propagationPolicy });
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
    }
  }

  private dropOwnerRef(d: ObjectRef, uid: string): void {
    const obj = this.ctx.store.get(d.bucket, d.key);
    if (!obj) return;
    const refs = ownerRefsOf(obj).filter((o) => o.uid !== uid);
    const metadata: Record<string, unknown> = { ...obj.metadata, ownerReferences: refs };
    if (refs.length === 0) delete metadata.ownerReferences;
    this.ctx.store.update(d.bucket, d.key, { ...obj, metadata } as StoredObject);
  }

  private dropFinalizer(at: ObjectRef, finalizer: string): void {
    const obj = this.ctx.store.get(at.bucket, at.key);
    if (!obj) return;
    const finalizers = finalizersOf(obj).filter((f) => f !== finalizer);
    if (finalizers.length === 0 && Number(obj.metadata.deletionGracePeriodSeconds ?? 0) === 0) {
      this.ctx.store.delete(at.bucket, at.key);
      return;
    }
    const metadata: Record<string, unknown> = { ...obj.metadata, finalizers };
    if (finalizers.length === 0) delete metadata.finalizers;
    this.ctx.store.update(at.bucket, at.key, { ...obj, metadata } as StoredObject);
  }
}
