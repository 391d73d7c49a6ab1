/**
 * The reference server's stand-in for kube-controller-manager's resource quota controller
 * (switched off with `controllers: false`): a ResourceQuota's status gets `hard` from its spec and
 * `used` measured from the objects stored in its namespace, with the same evaluators admission
 * charges with (admission/quota/). It measures again whenever something in a namespace with
 * quotas changes, so deletes and pods reaching a terminal phase give their usage back.
 *
 * Writes go through the status update stage like any client's, conditioned on the resourceVersion
 * read; a write that loses a race is measured again.
 */
import {
  addLists,
  compareAmounts,
  evaluatorFor,
  mask,
  quotaMatches,
  type ResourceList,
} from "../admission/index.js";
import { StatusError } from "../api/status.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import { updateObject } from "../endpoints/handlers/write.js";
import type { ServedResource } from "../resources/served.js";
import type { StoredObject, StoreEvent } from "../storage/mvcc.js";
import { NamespaceBatch } from "./namespace-batch.js";

type Json = Record<string, unknown>;

const QUOTAS = "/resourcequotas";
const record = (v: unknown): Json =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};
const resourceList = (v: unknown): ResourceList =>
  Object.fromEntries(Object.entries(record(v)).map(([k, x]) => [k, String(x)]));

function sameList(a: ResourceList, b: ResourceList): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => b[k] !== undefined && compareAmounts(a[k], b[k]) === 0)
  );
}

export class ResourceQuotaController {
  private readonly batch = new NamespaceBatch((ns) => void this.sync(ns));
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(private readonly ctx: HandlerContext) {
    this.unsubscribe = ctx.store.subscribe((e) => this.onEvent(e));
    for (const quota of ctx.store.list(QUOTAS).items) this.enqueue(String(quota.metadata.namespace));
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    this.batch.close();
  }

  private onEvent(e: StoreEvent): void {
    const slash = e.key.indexOf("/");
    if (slash <= 0) return;
    const namespace = e.key.slice(0, slash);
    if (e.bucket === QUOTAS) {
      // Its own status writes (and admission's charges) leave spec.hard and status.hard equal.
      if (
        e.type !== "DELETED" &&
        !sameList(resourceList(record(e.object.spec).hard), resourceList(record(e.object.status).hard))
      )
        this.enqueue(namespace);
      return;
    }
    if (this.ctx.store.list(QUOTAS, { prefix: `${namespace}/`, limit: 1 }).items.length > 0)
      this.enqueue(namespace);
  }

  private enqueue(namespace: string): void {
    this.batch.add(namespace);
  }

  private async sync(namespace: string): Promise<void> {
    if (this.closed) return;
    const quotas = this.ctx.resources.find("", "v1", "resourcequotas");
    if (!quotas) return;
    for (const quota of this.ctx.store.list(QUOTAS, { prefix: `${namespace}/` }).items) {
      const hard = resourceList(record(quota.spec).hard);
      const used = this.measure(namespace, quota, hard);
      const status = record(quota.status);
      if (sameList(hard, resourceList(status.hard)) && sameList(used, resourceList(status.used))) continue;
      const body = { ...quota, status: { ...status, hard, used } } as Json;
      try {
        await updateObject(this.ctx, quotas, {
          namespace,
          name: String(quota.metadata.name),
          subresource: "status",
          query: new URLSearchParams(),
          body,
          userAgent: "kube-controller-manager",
        });
      } catch (e) {
        // Changed or deleted meanwhile: its event brings the namespace back here.
        if (!(e instanceof StatusError)) throw e;
        this.enqueue(namespace);
      }
    }
  }

  /** What the namespace's objects use of each hard resource, "0" where nothing does. */
  private measure(namespace: string, quota: StoredObject, hard: ResourceList): ResourceList {
    let used: ResourceList = Object.fromEntries(Object.keys(hard).map((k) => [k, "0"]));
    const now = this.ctx.now();
    for (const r of this.countedResources()) {
      const e = evaluatorFor(r.group, r.resource);
      const names = e.matching(Object.keys(hard));
      if (names.length === 0) continue;
      for (const obj of this.ctx.store.list(r.bucket, { prefix: `${namespace}/` }).items)
        if (quotaMatches(quota, hard, e, obj)) used = addLists(used, mask(e.usage(obj, now), names));
    }
    return used;
  }

  /** One served resource per storage bucket, namespaced and stored. */
  private countedResources(): ServedResource[] {
    const seen = new Map<string, ServedResource>();
    for (const r of this.ctx.resources.all())
      if (r.namespaced && !r.virtual && !seen.has(r.bucket)) seen.set(r.bucket, r);
    return [...seen.values()];
  }
}
