/**
 * The reference server's stand-in for kube-controller-manager's garbage
 * collector (switched off with `controllers: false`). Each owner reference of a
 * dependent is checked against the live object: the owner exists (same uid,
 * name, kind and namespace), is absent (never existed, gone, or replaced by an
 * object of another uid), or is being deleted in the foreground. A dependent
 * none of whose owners exists is deleted; one with an owner left loses only its
 * references to the absent and foreground-deleting owners. An owner deleted
 * with the Orphan policy releases its dependents and then its `orphan`
 * finalizer; one deleted in the Foreground keeps `foregroundDeletion` until no
 * dependent blocking it (`blockOwnerDeletion`) is left.
 */
import { StatusError } from "../api/status.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import { deleteObject } from "../endpoints/handlers/delete.js";
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from "../endpoints/handlers/delete-policy.js";
import type { ServedResource } from "../resources/served.js";
import type { StoredObject, StoreEvent } from "../storage/mvcc.js";
import { dropFinalizer, finalizersOf } from "./finalizers.js";
import { type ObjectRef, OwnerIndex, type OwnerRef, ownerRefsOf } from "./owner-index.js";

const uidOf = (o: StoredObject): string => String(o.metadata.uid);
const refId = (d: ObjectRef) => `${d.bucket}\u0000${d.key}`;

/** How an owner reference stands: see the module comment; unresolved when its kind is not served. */
type OwnerState = "solid" | "absent" | "waiting" | "unresolved";

export class GarbageCollector {
  private readonly index: OwnerIndex;
  private byBucket = new Map<string, ServedResource>();
  /** Resolved owner kinds by apiVersion and kind (cleared with the resources). */
  private readonly kinds = new Map<string, ServedResource>();
  private readonly pendingOwners = new Set<string>();
  private readonly pendingDependents = new Map<string, ObjectRef>();
  private scheduled = false;
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: HandlerContext) {
    this.refreshResources();
    this.index = new OwnerIndex(ctx.store, this.byBucket.keys());
    for (const uid of this.index.ownerUids()) this.pendingOwners.add(uid);
    this.unsubscribe = ctx.store.subscribe((e) => this.onEvent(e));
    if (this.pendingOwners.size > 0) this.schedule();
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
  }

  /** Served resources by bucket, read again when custom resources come and go. */
  private refreshResources(): void {
    const byBucket = new Map<string, ServedResource>();
    for (const r of this.ctx.resources.all()) if (!byBucket.has(r.bucket)) byBucket.set(r.bucket, r);
    this.byBucket = byBucket;
    this.kinds.clear();
  }

  private resourceOf(bucket: string): ServedResource | undefined {
    if (!this.byBucket.has(bucket)) this.refreshResources();
    return this.byBucket.get(bucket);
  }

  private onEvent(e: StoreEvent): void {
    this.index.onEvent(e);
    const fins = finalizersOf(e.object);
    if (e.type === "DELETED") {
      this.queueOwner(uidOf(e.object));
      // A dependent gone may unblock an owner waiting in the foreground.
      for (const ref of ownerRefsOf(e.object)) if (ref.uid) this.queueOwner(ref.uid);
      return;
    }
    if (
      e.object.metadata.deletionTimestamp !== undefined &&
      (fins.includes(ORPHAN_FINALIZER) || fins.includes(FOREGROUND_FINALIZER))
    )
      this.queueOwner(uidOf(e.object));
    // A new or changed dependent may name an owner that does not exist.
    if (ownerRefsOf(e.object).length > 0) {
      const d = { bucket: e.bucket, key: e.key };
      this.pendingDependents.set(refId(d), d);
      this.schedule();
    }
  }

  private queueOwner(uid: string): void {
    this.pendingOwners.add(uid);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.closed) return;
      const uids = [...this.pendingOwners];
      const dependents = [...this.pendingDependents.values()];
      this.pendingOwners.clear();
      this.pendingDependents.clear();
      for (const uid of uids) this.processOwner(uid);
      for (const d of dependents) this.attemptToDelete(d);
    });
  }

  private processOwner(uid: string): void {
    const at = this.index.find(uid);
    const owner = at ? this.ctx.store.get(at.bucket, at.key) : undefined;
    const dependents = this.index.dependentsOf(uid);
    if (!owner || !at) {
      for (const d of dependents) this.attemptToDelete(d);
      return;
    }
    if (owner.metadata.deletionTimestamp === undefined) return;
    const fins = finalizersOf(owner);
    if (fins.includes(ORPHAN_FINALIZER)) {
      for (const d of dependents) this.dropOwnerRefs(d, new Set([uid]));
      this.dropFinalizer(at, ORPHAN_FINALIZER);
      return;
    }
    if (!fins.includes(FOREGROUND_FINALIZER)) return;
    for (const d of dependents) this.attemptToDelete(d);
    const blocking = this.index
      .dependentsOf(uid)
      .some((d) =>
        ownerRefsOf(this.ctx.store.get(d.bucket, d.key)).some(
          (o) => o.uid === uid && o.blockOwnerDeletion === true,
        ),
      );
    if (!blocking) this.dropFinalizer(at, FOREGROUND_FINALIZER);
  }

  /**
   * Looks at each owner of a dependent not itself being deleted: with an owner left it drops the
   * references to absent and foreground-deleting owners; without one it deletes the dependent (in the
   * foreground when it has dependents of its own and an owner waits for it). A reference this server
   * cannot resolve leaves the dependent alone, as the real collector retries until it can.
   */
  private attemptToDelete(d: ObjectRef): void {
    const dep = this.ctx.store.get(d.bucket, d.key);
    if (!dep || dep.metadata.deletionTimestamp !== undefined) return;
    const refs = ownerRefsOf(dep);
    if (refs.length === 0) return;
    const states = refs.map((ref) => this.ownerState(ref, dep));
    if (states.includes("unresolved")) return;
    const stale = new Set(refs.filter((_, i) => states[i] !== "solid").map((ref) => String(ref.uid)));
    if (states.includes("solid")) {
      if (stale.size > 0) this.dropOwnerRefs(d, stale);
      return;
    }
    const fins = finalizersOf(dep);
    let policy = "Background";
    if (states.includes("waiting") && this.index.dependentsOf(uidOf(dep)).length > 0) policy = "Foreground";
    else if (fins.includes(ORPHAN_FINALIZER)) policy = "Orphan";
    else if (fins.includes(FOREGROUND_FINALIZER)) policy = "Foreground";
    this.deleteDependent(d, policy);
  }

  /** The owner is looked up by uid and must match the reference's kind, name and namespace. */
  private ownerState(ref: OwnerRef, dep: StoredObject): OwnerState {
    const kind = this.servedKind(ref);
    if (!kind || !ref.uid) return "unresolved";
    const at = this.index.find(ref.uid);
    const owner = at ? this.ctx.store.get(at.bucket, at.key) : undefined;
    const r = at ? this.resourceOf(at.bucket) : undefined;
    if (!owner || !r || r.group !== kind.group || r.kind !== kind.kind) return "absent";
    if (owner.metadata.name !== ref.name) return "absent";
    if (r.namespaced && owner.metadata.namespace !== dep.metadata.namespace) return "absent";
    const deleting = owner.metadata.deletionTimestamp !== undefined;
    return deleting && finalizersOf(owner).includes(FOREGROUND_FINALIZER) ? "waiting" : "solid";
  }

  /** The served resource an owner reference's apiVersion and kind name, if this server serves it. */
  private servedKind(ref: OwnerRef): ServedResource | undefined {
    const apiVersion = ref.apiVersion ?? "";
    const id = `${apiVersion}\u0000${ref.kind}`;
    const known = this.kinds.get(id);
    if (known) return known;
    const slash = apiVersion.indexOf("/");
    const group = slash < 0 ? "" : apiVersion.slice(0, slash);
    const version = apiVersion.slice(slash + 1);
    for (const r of this.ctx.resources.all())
      if (r.group === group && r.version === version && r.kind === ref.kind) {
        this.kinds.set(id, r);
        return r;
      }
    return undefined;
  }

  private deleteDependent(d: ObjectRef, propagationPolicy: string): void {
    const r = this.resourceOf(d.bucket);
    const obj = this.ctx.store.get(d.bucket, d.key);
    if (!r || !obj) return;
    const m = obj.metadata as { namespace?: string; name?: string };
    try {
      deleteObject(this.ctx, r, m.namespace, String(m.name), { dryRun: false, propagationPolicy });
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
    }
  }

  private dropOwnerRefs(d: ObjectRef, uids: ReadonlySet<string>): void {
    const obj = this.ctx.store.get(d.bucket, d.key);
    if (!obj) return;
    const refs = ownerRefsOf(obj).filter((o) => !uids.has(String(o.uid)));
    const metadata: Record<string, unknown> = { ...obj.metadata, ownerReferences: refs };
    if (refs.length === 0) delete metadata.ownerReferences;
    this.ctx.store.update(d.bucket, d.key, { ...obj, metadata } as StoredObject);
  }

  private dropFinalizer(at: ObjectRef, finalizer: string): void {
    dropFinalizer(this.ctx.store, at.bucket, at.key, finalizer);
  }
}
