/**
 * What the simulated workload controllers share: a work loop keyed by the owner's namespace/name,
 * fed by the owner's events and by those of the objects it controls (found through their
 * controller reference), the pods (or ReplicaSets) an owner controls, pod readiness and
 * availability, the template hash upstream names revisions by, and pod creation from a template.
 */
import type { coreV1, metaV1 } from "@kubesdk/models";
import { StatusError } from "../api/status.js";
import type { StoreEvent } from "../storage/mvcc.js";
import { WorkLoop } from "./loop.js";
import { type ClusterAccess, controllerOf, controllerRef, type KindName, type Meta } from "./objects.js";

export type Pod = coreV1.Pod & { metadata: Meta };

export interface Owner {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: Meta;
}

/** A controller's loop, synced for its own objects and for the owners of the `children`' events. */
export function ownerLoop(
  access: ClusterAccess,
  own: KindName,
  ownKind: string,
  children: readonly KindName[],
  sync: (key: string) => Promise<void>,
  log?: (line: string) => void,
): { loop: WorkLoop; close(): void } {
  const loop = new WorkLoop(sync, log);
  const ownBucket = access.resource(own).bucket;
  const childBuckets = new Set(children.map((k) => access.resource(k).bucket));
  const unsubscribe = access.ctx.store.subscribe((e: StoreEvent) => {
    if (e.bucket === ownBucket) loop.add(e.key);
    else if (childBuckets.has(e.bucket)) {
      const meta = e.object.metadata as Meta;
      const ref = (meta.ownerReferences ?? []).find((o) => o.controller === true && o.kind === ownKind);
      if (ref) loop.add(`${meta.namespace}/${ref.name}`);
    }
  });
  for (const o of access.list(own)) loop.add(`${o.metadata.namespace}/${o.metadata.name}`);
  return {
    loop,
    close() {
      unsubscribe();
      loop.close();
    },
  };
}

/**
 * A workload controller: its loop (ownerLoop) and, for each key, the live object (not being
 * deleted) handed to `reconcile` with the owner reference data its children get.
 */
export abstract class OwnerController<T> {
  protected readonly watch: { loop: WorkLoop; close(): void };

  constructor(
    protected readonly access: ClusterAccess,
    private readonly own: KindName,
    private readonly owner: { apiVersion: string; kind: string },
    children: readonly KindName[],
    log?: (line: string) => void,
  ) {
    this.watch = ownerLoop(access, own, owner.kind, children, (key) => this.sync(key), log);
  }

  close(): void {
    this.watch.close();
  }

  private async sync(key: string): Promise<void> {
    const obj = this.access.get<T>(this.own, key);
    if (!obj || obj.metadata.deletionTimestamp) return;
    await this.reconcile(key, obj, { ...this.owner, metadata: obj.metadata });
  }

  protected abstract reconcile(key: string, obj: T & { metadata: Meta }, owner: Owner): Promise<void>;
}

/** The objects of `kind` in the owner's namespace that it controls. */
export function controlled<T>(
  access: ClusterAccess,
  kind: KindName,
  owner: Owner,
): (T & { metadata: Meta })[] {
  return access
    .list<T>(kind, owner.metadata.namespace)
    .filter((o) => controllerOf(o.metadata, owner.kind) === owner.metadata.uid);
}

export const isTerminal = (pod: Pod) => pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
/** Counted as a replica: not finished and not being deleted. */
export const isActive = (pod: Pod) => !isTerminal(pod) && !pod.metadata.deletionTimestamp;

export function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true;
}

/**
 * Ready for at least minReadySeconds at `now`; when not yet, `recheck` gets how long until it is.
 */
export function isAvailable(pod: Pod, minReadySeconds: number, now: number, recheck?: (ms: number) => void) {
  if (!isReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = Date.parse(
    String(pod.status?.conditions?.find((c) => c.type === "Ready")?.lastTransitionTime),
  );
  const at = (Number.isNaN(since) ? now : since) + minReadySeconds * 1000;
  if (at > now) recheck?.(at - now);
  return at <= now;
}

const SAFE = "bcdfghjklmnpqrstvwxz2456789";

/** A short hash of a pod template, in upstream's alphabet (the pod-template-hash of a revision). */
export function templateHash(template: unknown): string {
  let h = 0x811c9dc5;
  for (const ch of Buffer.from(JSON.stringify(template ?? {}))) {
    h ^= ch;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // As upstream's rand.SafeEncodeString of the decimal hash: one alphabet letter per digit.
  return [...String(h)].map((d) => SAFE[d.charCodeAt(0) % SAFE.length]).join("");
}

export interface PodParts {
  readonly name?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
  readonly spec?: Partial<coreV1.PodSpec>;
}

/** Creates a pod from the owner's template (through the create stage: admission and defaults). */
export async function createPod(
  access: ClusterAccess,
  owner: Owner,
  template: coreV1.PodTemplateSpec | undefined,
  parts: PodParts = {},
): Promise<void> {
  const meta: metaV1.ObjectMeta = template?.metadata ?? {};
  const labels = { ...meta.labels, ...parts.labels };
  const annotations = { ...meta.annotations, ...parts.annotations };
  const body = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      ...(parts.name ? { name: parts.name } : { generateName: `${owner.metadata.name}-` }),
      namespace: owner.metadata.namespace,
      ...(Object.keys(labels).length ? { labels } : {}),
      ...(Object.keys(annotations).length ? { annotations } : {}),
      ownerReferences: [controllerRef(owner.apiVersion, owner.kind, owner.metadata)],
    },
    spec: { ...template?.spec, ...parts.spec },
  };
  try {
    await access.create("pods", owner.metadata.namespace, body);
  } catch (e) {
    // A named pod that exists already (a StatefulSet's) is the next sync's business.
    if (!(e instanceof StatusError) || e.status.code !== 409) throw e;
  }
}

/** Sets `status` on the owner unless it holds that already. */
export async function writeStatus(
  access: ClusterAccess,
  kind: KindName,
  owner: { metadata: Meta; status?: unknown },
  status: object,
): Promise<void> {
  const merged = { ...(owner.status as object), ...status };
  if (JSON.stringify(merged) === JSON.stringify(owner.status ?? {})) return;
  await access.update(kind, { ...owner, status: merged }, "status");
}
