/**
 * A controller that keeps one object of a fixed name in every active namespace, as
 * kube-controller-manager's ServiceAccount controller (`default`) and root CA publisher
 * (`kube-root-ca.crt`) do: it looks at every namespace at start, at a namespace that is added or
 * changes, and at its object's namespace when the object is changed or deleted by someone else.
 * Looks are batched to the next turn of the event loop (namespace-batch.ts).
 */
import { StatusError } from "../api/status.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import type { StoredObject, StoreEvent } from "../storage/mvcc.js";
import { NamespaceBatch } from "./namespace-batch.js";

const NAMESPACES = "/namespaces";

export interface NamespaceObject {
  /** The object's bucket and name, e.g. "/serviceaccounts" and "default". */
  readonly bucket: string;
  readonly name: string;
  /** Brings the namespace's object to what it should be (create it, or correct it). */
  ensure(namespace: string, current: StoredObject | undefined): Promise<unknown> | undefined;
  /** Whether a change event of the object needs another look (deletes always do). */
  changed?(object: StoredObject): boolean;
}

export function isActiveNamespace(ns: StoredObject | undefined): boolean {
  if (!ns || ns.metadata.deletionTimestamp !== undefined) return false;
  return (ns.status as { phase?: unknown } | undefined)?.phase !== "Terminating";
}

export class PerNamespaceController {
  private readonly batch = new NamespaceBatch((ns) => this.sync(ns));
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ctx: HandlerContext,
    private readonly target: NamespaceObject,
  ) {
    this.unsubscribe = ctx.store.subscribe((e) => this.onEvent(e));
    for (const ns of ctx.store.list(NAMESPACES).items) this.enqueue(String(ns.metadata.name));
  }

  close(): void {
    this.unsubscribe();
    this.batch.close();
  }

  private onEvent(e: StoreEvent): void {
    if (e.bucket === NAMESPACES) {
      if (e.type !== "DELETED") this.enqueue(e.key);
      return;
    }
    if (e.bucket !== this.target.bucket || !e.key.endsWith(`/${this.target.name}`)) return;
    if (e.type === "DELETED" || (e.type === "MODIFIED" && this.target.changed?.(e.object)))
      this.enqueue(e.key.slice(0, e.key.indexOf("/")));
  }

  private enqueue(namespace: string): void {
    this.batch.add(namespace);
  }

  private sync(namespace: string): void {
    if (!isActiveNamespace(this.ctx.store.get(NAMESPACES, namespace))) return;
    const current = this.ctx.store.get(this.target.bucket, `${namespace}/${this.target.name}`);
    this.target.ensure(namespace, current)?.catch((e: unknown) => {
      // Lost a race (someone created or changed it, or the namespace started terminating): the
      // store event of that change brings the namespace back here when it still matters.
      if (!(e instanceof StatusError)) throw e;
    });
  }
}
