/**
 * The reference server's stand-in for kube-controller-manager's namespace
 * controller (switched off with `controllers: false`): a Terminating namespace
 * gets its contents deleted, conditions saying what remains, and once nothing
 * is left its `kubernetes` finalizer is removed and the namespace deleted.
 * Objects whose own finalizers hold them keep the namespace waiting.
 */
import { StatusError } from "../api/status.js";
import { type HandlerContext, metadataOf } from "../endpoints/handlers/context.js";
import { deleteObject } from "../endpoints/handlers/delete.js";
import type { ServedResource } from "../resources/served.js";
import type { StoredObject, StoreEvent } from "../storage/mvcc.js";

const NAMESPACES = "/namespaces";
const FINALIZER = "kubernetes";

interface Remaining {
  readonly counts: Map<string, number>;
  readonly finalizers: Map<string, number>;
}

export class NamespaceController {
  private readonly due = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: HandlerContext) {
    this.unsubscribe = ctx.store.subscribe((e) => this.onEvent(e));
    for (const ns of ctx.store.list(NAMESPACES).items) this.consider(ns);
  }

  close(): void {
    this.unsubscribe();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private onEvent(e: StoreEvent): void {
    if (e.bucket === NAMESPACES) {
      if (e.type === "DELETED") this.due.delete(e.key);
      else this.consider(e.object);
      return;
    }
    // Content of a Terminating namespace went away: look again.
    const slash = e.key.indexOf("/");
    if (e.type === "DELETED" && slash > 0 && this.due.has(e.key.slice(0, slash)))
      this.later(e.key.slice(0, slash), 0);
  }

  private consider(ns: StoredObject): void {
    const name = String(metadataOf(ns).name);
    if (ns.metadata.deletionTimestamp === undefined || this.due.has(name)) return;
    if (!specFinalizers(ns).includes(FINALIZER)) return;
    this.due.set(name, Date.now() + this.ctx.settings.namespaceFinalizeDelayMs);
    this.later(name, this.ctx.settings.namespaceFinalizeDelayMs);
  }

  /** Runs sync(name) after `ms`; one timer per namespace (a newer call replaces the older one). */
  private later(name: string, ms: number): void {
    const previous = this.timers.get(name);
    if (previous !== undefined) clearTimeout(previous);
    const t = setTimeout(() => {
      this.timers.delete(name);
      this.sync(name);
    }, ms);
    t.unref();
    this.timers.set(name, t);
  }

  private sync(name: string): void {
    const ns = this.ctx.store.get(NAMESPACES, name);
    const due = this.due.get(name);
    if (!ns || due === undefined || !specFinalizers(ns).includes(FINALIZER))
      return void this.due.delete(name);
    // A timer may fire before Date.now() reaches `due`: Node starts it from the event loop's clock,
    // which lags the wall clock by however long the loop has been busy. Not yet due: wait the rest.
    const early = due - Date.now();
    if (early > 0) {
      this.later(name, early);
      return;
    }
    const remaining = this.deleteContent(name);
    const conditions = namespaceConditions(remaining, new Date(this.ctx.now()).toISOString());
    const status = { ...(ns.status as object), phase: "Terminating", conditions };
    if (remaining.counts.size > 0) {
      if (!sameConditions(ns.status, conditions)) this.ctx.store.update(NAMESPACES, name, { ...ns, status });
      return;
    }
    this.due.delete(name);
    const spec = { ...(ns.spec as object), finalizers: specFinalizers(ns).filter((f) => f !== FINALIZER) };
    const finalized = this.ctx.store.update(NAMESPACES, name, { ...ns, spec, status });
    const metaFinalizers = (finalized.metadata.finalizers as string[] | undefined) ?? [];
    if (spec.finalizers.length === 0 && metaFinalizers.length === 0) this.ctx.store.delete(NAMESPACES, name);
  }

  /** Deletes what is in the namespace and counts what is still there. */
  private deleteContent(namespace: string): Remaining {
    const remaining: Remaining = { counts: new Map(), finalizers: new Map() };
    const seen = new Set<string>();
    for (const r of this.ctx.resources.all()) {
      if (!r.namespaced || seen.has(r.bucket)) continue;
      seen.add(r.bucket);
      for (const obj of this.ctx.store.list(r.bucket, { prefix: `${namespace}/` }).items) {
        if (obj.metadata.deletionTimestamp === undefined) this.remove(r, namespace, obj);
        if (!this.ctx.store.get(r.bucket, `${namespace}/${String(obj.metadata.name)}`)) continue;
        const label = `${r.resource}.${r.group}`;
        remaining.counts.set(label, (remaining.counts.get(label) ?? 0) + 1);
        for (const f of (obj.metadata.finalizers as string[] | undefined) ?? [])
          remaining.finalizers.set(f, (remaining.finalizers.get(f) ?? 0) + 1);
      }
    }
    return remaining;
  }

  private remove(r: ServedResource, namespace: string, obj: StoredObject): void {
    try {
      deleteObject(this.ctx, r, namespace, String(obj.metadata.name), {
        dryRun: false,
        propagationPolicy: "Background",
      });
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
    }
  }
}

function sameConditions(status: unknown, next: readonly { type: string; status: string; message: string }[]) {
  const old = ((status as { conditions?: typeof next } | undefined)?.conditions ?? []).map(
    (c) => `${c.type}=${c.status}:${c.message}`,
  );
  return old.join("\n") === next.map((c) => `${c.type}=${c.status}:${c.message}`).join("\n");
}

function specFinalizers(ns: StoredObject): string[] {
  return ((ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []) as string[];
}

const condition = (type: string, status: string, reason: string, message: string, time: string) => ({
  type,
  status,
  lastTransitionTime: time,
  reason,
  message,
});

/** The conditions the namespace controller reports while it deletes the contents. */
function namespaceConditions(remaining: Remaining, time: string) {
  const counts = [...remaining.counts].sort().map(([k, n]) => `${k} has ${n} resource instances`);
  const fins = [...remaining.finalizers].sort().map(([f, n]) => `${f} in ${n} resource instances`);
  return [
    condition(
      "NamespaceDeletionDiscoveryFailure",
      "False",
      "ResourcesDiscovered",
      "All resources successfully discovered",
      time,
    ),
    condition(
      "NamespaceDeletionGroupVersionParsingFailure",
      "False",
      "ParsedGroupVersions",
      "All legacy kube types successfully parsed",
      time,
    ),
    condition(
      "NamespaceDeletionContentFailure",
      "False",
      "ContentDeleted",
      "All content successfully deleted, may be waiting on finalization",
      time,
    ),
    counts.length > 0
      ? condition(
          "NamespaceContentRemaining",
          "True",
          "SomeResourcesRemain",
          `Some resources are remaining: ${counts.join(", ")}`,
          time,
        )
      : condition(
          "NamespaceContentRemaining",
          "False",
          "ContentRemoved",
          "All content successfully removed",
          time,
        ),
    fins.length > 0
      ? condition(
          "NamespaceFinalizersRemaining",
          "True",
          "SomeFinalizersRemain",
          `Some content in the namespace has finalizers remaining: ${fins.join(", ")}`,
          time,
        )
      : condition(
          "NamespaceFinalizersRemaining",
          "False",
          "ContentHasNoFinalizers",
          "All content-preserving finalizers finished",
          time,
        ),
  ];
}
