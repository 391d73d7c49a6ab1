/**
 * CrdController stands in for apiextensions-apiserver's controllers: it
 * watches the store's customresourcedefinitions and
 * - serves the resources of each CRD whose names are accepted (synchronously,
 *   inside the store event, so a CR can be created right after its CRD),
 * - writes the status (accepted names, NamesAccepted, Established) as a
 *   separate write right after the CRD's own, as the real controllers do,
 * - when a CRD is deleted, stops serving its resources and deletes their
 *   objects (upstream's customresourcecleanup finalizer does that before the
 *   CRD disappears; here the CRD goes first and the objects right after).
 */

import type { ServiceResolver } from "../crd/conversion-webhook.js";
import { desiredStatus, groupOf } from "../crd/crd-status.js";
import { CRD_BUCKET, namesOf, specOf, str } from "../crd/crd-view.js";
import { crdNameOf, customResourcesOf } from "../crd/custom-resource.js";
import { serviceResolver } from "../crd/service-endpoint.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import type { StoredObject, StoreEvent } from "../storage/mvcc.js";

export interface CrdControllerOptions {
  /** Called after a CRD's resources stopped being served as they were: deleted or changed (ends their watches). */
  readonly onRemoved?: (crdName: string) => void;
}

export class CrdController {
  private readonly unsubscribe: () => void;
  private readonly statusDue = new Set<string>();
  /** The spec each CRD's served resources were built from. */
  private readonly servedSpecs = new Map<string, string>();
  private closed = false;
  private readonly resolveService: ServiceResolver;

  constructor(
    private readonly ctx: HandlerContext,
    private readonly options: CrdControllerOptions = {},
  ) {
    this.resolveService = serviceResolver(ctx.store, ctx.resources);
    this.unsubscribe = ctx.store.subscribe((e) => {
      if (e.bucket === CRD_BUCKET) this.onEvent(e);
    });
    for (const crd of ctx.store.list(CRD_BUCKET).items) this.reconcile(crd);
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
  }

  private onEvent(e: StoreEvent): void {
    if (e.type === "DELETED") this.remove(e.prev ?? e.object);
    else this.reconcile(e.object);
  }

  private othersInGroup(crd: StoredObject): StoredObject[] {
    const name = crdNameOf(crd);
    const group = groupOf(crd);
    return this.ctx.store.list(CRD_BUCKET).items.filter((o) => crdNameOf(o) !== name && groupOf(o) === group);
  }

  private reconcile(crd: StoredObject): void {
    const name = crdNameOf(crd);
    const desired = desiredStatus(crd, this.othersInGroup(crd), this.ctx.now());
    const acceptedNames = desired.status.acceptedNames as Record<string, unknown>;
    const source = { ...crd, spec: { ...specOf(crd), names: { ...namesOf(crd), ...acceptedNames } } };
    // Status-only writes leave the served resources (and their compiled schemas) as they are.
    const key = desired.accepted ? JSON.stringify(source.spec) : "";
    const before = this.servedSpecs.get(name);
    if (before !== key) {
      const timeout = this.ctx.settings.conversionWebhookTimeoutMs;
      const served = desired.accepted ? customResourcesOf(source, this.resolveService, timeout) : [];
      this.ctx.resources.setCustom(name, served);
      this.servedSpecs.set(name, key);
      // Upstream replaces a changed CRD's storage, which ends the watches on the old one.
      if (before !== undefined && before !== "") this.options.onRemoved?.(name);
    }
    if (JSON.stringify(desired.status) !== JSON.stringify(crd.status) && !this.statusDue.has(name)) {
      this.statusDue.add(name);
      // Writing from inside a store event would reorder events for other subscribers: defer.
      queueMicrotask(() => this.writeStatus(name));
    }
  }

  private writeStatus(name: string): void {
    this.statusDue.delete(name);
    if (this.closed) return;
    const current = this.ctx.store.get(CRD_BUCKET, name);
    if (!current) return;
    const desired = desiredStatus(current, this.othersInGroup(current), this.ctx.now());
    if (JSON.stringify(desired.status) === JSON.stringify(current.status)) return;
    this.ctx.store.update(CRD_BUCKET, name, { ...current, status: desired.status });
  }

  private remove(crd: StoredObject): void {
    const name = crdNameOf(crd);
    this.ctx.resources.setCustom(name, []);
    this.servedSpecs.delete(name);
    this.options.onRemoved?.(name);
    const bucket = `${groupOf(crd)}/${str(namesOf(crd).plural)}`;
    queueMicrotask(() => {
      if (this.closed) return;
      // A CRD of the same name created meanwhile owns the bucket again: leave its objects alone.
      if (this.ctx.store.get(CRD_BUCKET, name)) return;
      for (const obj of this.ctx.store.list(bucket).items) {
        const meta = obj.metadata as { name?: string; namespace?: string };
        const key = meta.namespace ? `${meta.namespace}/${meta.name}` : String(meta.name);
        if (this.ctx.store.get(bucket, key)) this.ctx.store.delete(bucket, key);
      }
    });
  }
}
