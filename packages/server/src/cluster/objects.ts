/**
 * How the simulated cluster reads and writes: objects of the store as the models' types, and writes
 * through the request stages (admission, defaulting, validation, managed fields) as a real
 * component's requests would go, each conditioned on the resourceVersion it read.
 */
import type { metaV1 } from "@kubesdk/models";
import { matchesLabels, requirementsOfSelector } from "../api/label-selector.js";
import { nowTimestamp } from "../api/names.js";
import { errors, StatusError } from "../api/status.js";
import { admissionIsPlain } from "../controllers/stored-templates.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import { deleteObject } from "../endpoints/handlers/delete.js";
import { createObject, updateObject } from "../endpoints/handlers/write.js";
import type { ServedResource } from "../resources/served.js";
import type { StoredObject } from "../storage/mvcc.js";

export type Meta = metaV1.ObjectMeta;

/** The kinds the simulation works with, by group, version and resource. */
export const KINDS = {
  pods: ["", "v1", "pods"],
  nodes: ["", "v1", "nodes"],
  leases: ["coordination.k8s.io", "v1", "leases"],
  replicasets: ["apps", "v1", "replicasets"],
  deployments: ["apps", "v1", "deployments"],
  statefulsets: ["apps", "v1", "statefulsets"],
  daemonsets: ["apps", "v1", "daemonsets"],
  jobs: ["batch", "v1", "jobs"],
  persistentvolumeclaims: ["", "v1", "persistentvolumeclaims"],
} as const;

export type KindName = keyof typeof KINDS;

/** A component's access to the store: reads, and writes through the request stages. */
export class ClusterAccess {
  constructor(
    readonly ctx: HandlerContext,
    private readonly agent: string,
    /**
     * Whether writes whose stored form is known may be committed from templates (the in-process
     * server's own components; a subclass writing to a remote server leaves it off).
     */
    private readonly templates = false,
  ) {}

  /** Whether a template may stand for the write path now: on, and nothing configured to change a write. */
  templated(): boolean {
    return this.templates && admissionIsPlain(this.ctx);
  }

  /** Commits an object built from a template (templated() said so), as the write path's commit would. */
  commit(kind: KindName, key: string, obj: StoredObject): StoredObject {
    const bucket = this.resource(kind).bucket;
    return this.ctx.store.get(bucket, key)
      ? this.ctx.store.update(bucket, key, obj)
      : this.ctx.store.create(bucket, key, obj);
  }

  now(): string {
    return nowTimestamp(this.ctx.now());
  }

  resource(kind: KindName): ServedResource {
    const [group, version, plural] = KINDS[kind];
    const r = this.ctx.resources.find(group, version, plural);
    if (!r) throw new Error(`the server does not serve ${plural}`);
    return r;
  }

  get<T>(kind: KindName, key: string): (T & { metadata: Meta }) | undefined {
    return this.ctx.store.get(this.resource(kind).bucket, key) as (T & { metadata: Meta }) | undefined;
  }

  list<T>(kind: KindName, namespace?: string): (T & { metadata: Meta })[] {
    const prefix = namespace === undefined ? undefined : `${namespace}/`;
    return this.ctx.store.list(this.resource(kind).bucket, prefix ? { prefix } : {}).items as (T & {
      metadata: Meta;
    })[];
  }

  async create(kind: KindName, namespace: string | undefined, body: object): Promise<void> {
    await createObject(this.ctx, this.resource(kind), {
      namespace,
      query: new URLSearchParams(),
      body: body as Record<string, unknown>,
      userAgent: this.agent,
    });
  }

  /** Writes the object (or its status), conditioned on the resourceVersion it carries. */
  async update(kind: KindName, obj: object, subresource?: "status"): Promise<void> {
    const meta = (obj as { metadata?: Meta }).metadata ?? {};
    await updateObject(this.ctx, this.resource(kind), {
      namespace: meta.namespace,
      name: String(meta.name),
      ...(subresource ? { subresource } : {}),
      query: new URLSearchParams(),
      body: obj as Record<string, unknown>,
      userAgent: this.agent,
    });
  }

  /** Deletes the object with this uid; gone already or replaced is no error. */
  async delete(kind: KindName, meta: Meta, gracePeriodSeconds?: number): Promise<void> {
    try {
      deleteObject(this.ctx, this.resource(kind), meta.namespace, String(meta.name), {
        dryRun: false,
        preconditions: { uid: String(meta.uid) },
        propagationPolicy: "Background",
        ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}),
      });
    } catch (e) {
      if (!(e instanceof StatusError) || (e.status.code !== 404 && e.status.code !== 409)) throw e;
    }
  }

  /** Writes straight to the store (a binding: upstream's pods/binding is no ordinary update either). */
  replace(kind: KindName, key: string, obj: StoredObject): void {
    const current = this.ctx.store.get(this.resource(kind).bucket, key);
    if (current?.metadata.resourceVersion !== obj.metadata.resourceVersion)
      throw errors.conflict({ group: "", resource: kind }, key, "the object has been modified");
    this.ctx.store.update(this.resource(kind).bucket, key, obj);
  }
}

export function keyOf(meta: Meta): string {
  return meta.namespace ? `${meta.namespace}/${meta.name}` : String(meta.name);
}

/** Whether a label selector selects these labels (an empty selector selects everything). */
export function selects(selector: metaV1.LabelSelector | undefined, labels: Record<string, string> = {}) {
  if (selector === undefined) return false;
  return matchesLabels(requirementsOfSelector(selector), labels);
}

/** The uid of the object's controller, if it has one of this kind. */
export function controllerOf(meta: Meta, kind?: string): string | undefined {
  const ref = (meta.ownerReferences ?? []).find((o) => o.controller === true);
  return ref && (kind === undefined || ref.kind === kind) ? ref.uid : undefined;
}

/** An owner reference making `owner` the controller of what carries it. */
export function controllerRef(apiVersion: string, kind: string, owner: Meta): metaV1.OwnerReference {
  return {
    apiVersion,
    kind,
    name: String(owner.name),
    uid: String(owner.uid),
    controller: true,
    blockOwnerDeletion: true,
  };
}

export interface Condition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
}

/**
 * The conditions with `next` set: its transition time stays when the status did not change (as
 * every controller keeps it), and the order of the others is kept.
 */
export function withCondition<C extends Condition>(conditions: readonly C[] | undefined, next: C): C[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === next.type);
  if (i < 0) return [...list, next];
  const old = list[i] as C;
  const same = old.status === next.status;
  list[i] = {
    ...next,
    ...(same && old.lastTransitionTime ? { lastTransitionTime: old.lastTransitionTime } : {}),
  };
  return list;
}

/** Whether two JSON values are equal (status writes are skipped when nothing changed). */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
