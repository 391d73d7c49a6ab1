/**
 * The stand-in for kube-controller-manager's pvc-protection and pv-protection controllers: a
 * PersistentVolumeClaim being deleted loses its `kubernetes.io/pvc-protection` finalizer (which
 * StorageObjectInUseProtection admission gave it) once no pod that has not finished uses it, by
 * name or as its ephemeral volume; a PersistentVolume being deleted loses
 * `kubernetes.io/pv-protection` once it is not Bound.
 */
import type { HandlerContext } from "../endpoints/handlers/context.js";
import type { StoredObject, StoreEvent } from "../storage/mvcc.js";
import { dropFinalizer, finalizersOf } from "./finalizers.js";
import { NamespaceBatch } from "./namespace-batch.js";

type Json = Record<string, unknown>;

const CLAIMS = "/persistentvolumeclaims";
const VOLUMES = "/persistentvolumes";
const PODS = "/pods";
const PVC_FINALIZER = "kubernetes.io/pvc-protection";
const PV_FINALIZER = "kubernetes.io/pv-protection";
/** The batch's key for cluster-scoped PersistentVolumes (no namespace is named so). */
const VOLUMES_KEY = "";

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const deleting = (o: StoredObject) => o.metadata.deletionTimestamp !== undefined;

/** The claims a pod that has not finished holds: its claim volumes and its ephemeral volumes'. */
function claimsOf(pod: StoredObject): string[] {
  const phase = isRecord(pod.status) ? pod.status.phase : undefined;
  if (phase === "Succeeded" || phase === "Failed") return [];
  const volumes = isRecord(pod.spec) && Array.isArray(pod.spec.volumes) ? pod.spec.volumes : [];
  return volumes.filter(isRecord).flatMap((v) => {
    if (isRecord(v.persistentVolumeClaim)) return [String(v.persistentVolumeClaim.claimName)];
    return isRecord(v.ephemeral) ? [`${String(pod.metadata.name)}-${String(v.name)}`] : [];
  });
}

export class StorageProtectionController {
  private readonly batch = new NamespaceBatch((ns) => this.sync(ns));
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: HandlerContext) {
    this.unsubscribe = ctx.store.subscribe((e) => this.onEvent(e));
    for (const claim of ctx.store.list(CLAIMS).items)
      if (deleting(claim)) this.batch.add(String(claim.metadata.namespace));
    this.batch.add(VOLUMES_KEY);
  }

  close(): void {
    this.unsubscribe();
    this.batch.close();
  }

  private onEvent(e: StoreEvent): void {
    if (e.bucket === VOLUMES && deleting(e.object)) this.batch.add(VOLUMES_KEY);
    else if (e.bucket === CLAIMS && e.type !== "DELETED" && deleting(e.object))
      this.batch.add(String(e.object.metadata.namespace));
    else if (e.bucket === PODS) this.batch.add(String(e.object.metadata.namespace));
  }

  private sync(namespace: string): void {
    if (namespace === VOLUMES_KEY) {
      this.syncVolumes();
      return;
    }
    const prefix = `${namespace}/`;
    const claims = this.ctx.store
      .list(CLAIMS, { prefix })
      .items.filter((c) => deleting(c) && finalizersOf(c).includes(PVC_FINALIZER));
    if (claims.length === 0) return;
    const used = new Set(this.ctx.store.list(PODS, { prefix }).items.flatMap(claimsOf));
    for (const c of claims)
      if (!used.has(String(c.metadata.name)))
        dropFinalizer(this.ctx.store, CLAIMS, `${prefix}${String(c.metadata.name)}`, PVC_FINALIZER);
  }

  private syncVolumes(): void {
    for (const pv of this.ctx.store.list(VOLUMES).items) {
      const bound = isRecord(pv.status) && pv.status.phase === "Bound";
      if (deleting(pv) && !bound && finalizersOf(pv).includes(PV_FINALIZER))
        dropFinalizer(this.ctx.store, VOLUMES, String(pv.metadata.name), PV_FINALIZER);
    }
  }
}
