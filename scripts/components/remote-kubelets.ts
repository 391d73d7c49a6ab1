/**
 * The reference server's simulated kubelets (packages/server/src/cluster/kubelet.ts) driving the
 * nodes and pods of another API server over HTTP, so that the components suite runs the same
 * kubelets on both targets. They read a local mirror (an MvccStore fed by lists and watches of
 * pods, nodes and node Leases) and write to the server; a write is conditioned on the server's
 * resourceVersion of what the mirror holds, remembered per object.
 */
import { StatusError } from "../../packages/server/src/api/status.js";
import { PodBehaviours } from "../../packages/server/src/cluster/behaviour.js";
import { SimulatedKubelets } from "../../packages/server/src/cluster/kubelet.js";
import { ClusterAccess, KINDS, type KindName, type Meta } from "../../packages/server/src/cluster/objects.js";
import {
  DEFAULT_SETTINGS,
  type HandlerContext,
} from "../../packages/server/src/endpoints/handlers/context.js";
import { builtinResourceTable } from "../../packages/server/src/registry/index.js";
import { DEFAULT_HISTORY, MvccStore, type StoredObject } from "../../packages/server/src/storage/mvcc.js";
import { type Cluster, STAGES } from "./cluster.js";

type Mirrored = StoredObject & { metadata: Meta };

function collection(kind: KindName, namespace: string | undefined): string {
  const [group, version, plural] = KINDS[kind];
  const base = group === "" ? `/api/${version}` : `/apis/${group}/${version}`;
  return namespace ? `${base}/namespaces/${namespace}/${plural}` : `${base}/${plural}`;
}

/** Writes go to the remote server; reads come from the mirror (ClusterAccess's own). */
class RemoteAccess extends ClusterAccess {
  constructor(
    ctx: HandlerContext,
    private readonly c: Cluster,
    private readonly remoteVersion: (kind: KindName, meta: Meta) => string | undefined,
  ) {
    super(ctx, "kubelet");
  }

  private async send(method: string, path: string, body: unknown, ok: (status: number) => boolean) {
    const res = await this.c.call(method, path, body);
    if (!ok(res.status)) throw new StatusError(res.json);
  }

  override async create(kind: KindName, namespace: string | undefined, body: object): Promise<void> {
    await this.send("POST", collection(kind, namespace), body, (s) => s < 300);
  }

  override async update(kind: KindName, obj: object, subresource?: "status"): Promise<void> {
    const meta = (obj as { metadata: Meta }).metadata;
    const resourceVersion = this.remoteVersion(kind, meta);
    const path = `${collection(kind, meta.namespace)}/${meta.name}${subresource ? `/${subresource}` : ""}`;
    await this.send("PUT", path, { ...obj, metadata: { ...meta, resourceVersion } }, (s) => s < 300);
  }

  override async delete(kind: KindName, meta: Meta, gracePeriodSeconds?: number): Promise<void> {
    const body = { preconditions: { uid: meta.uid }, propagationPolicy: "Background", gracePeriodSeconds };
    const path = `${collection(kind, meta.namespace)}/${meta.name}`;
    await this.send("DELETE", path, body, (s) => s < 300 || s === 404 || s === 409);
  }
}

export class RemoteKubelets {
  private readonly ctx: HandlerContext;
  private readonly versions = new Map<string, string>();
  private readonly abort = new AbortController();
  private kubelets: SimulatedKubelets | undefined;
  /** Errors of the watches, reported when a scenario fails. */
  readonly errors: string[] = [];

  constructor(private readonly c: Cluster) {
    const store = new MvccStore(DEFAULT_HISTORY);
    this.ctx = { store, resources: builtinResourceTable(), settings: DEFAULT_SETTINGS, now: Date.now };
  }

  async start(nodes: readonly string[]): Promise<void> {
    for (const [kind, namespace] of [["nodes"], ["pods"], ["leases", "kube-node-lease"]] as const)
      await this.mirror(kind, namespace);
    const remoteVersion = (kind: KindName, meta: Meta) => this.versions.get(this.id(kind, meta));
    this.kubelets = new SimulatedKubelets(
      new RemoteAccess(this.ctx, this.c, remoteVersion),
      {
        nodes: nodes.map((name) => ({ name })),
        heartbeatMs: 5_000,
        behaviours: new PodBehaviours(STAGES),
        restartBackoffMs: 100,
        maxRestartBackoffMs: 10_000,
      },
      (line) => this.errors.push(line),
    );
  }

  stop(): void {
    this.kubelets?.close();
    this.abort.abort();
  }

  private id(kind: KindName, meta: Meta): string {
    return `${kind}|${meta.namespace ?? ""}/${meta.name}`;
  }

  /** Lists `kind`, puts the items in the mirror, then follows its watch from the list. */
  private async mirror(kind: KindName, namespace?: string): Promise<void> {
    const path = collection(kind, namespace);
    const listed = await this.c.call("GET", path);
    for (const item of listed.json.items as Mirrored[]) this.apply(kind, "ADDED", item);
    const rv = listed.json.metadata.resourceVersion;
    this.c
      .watch(
        `${path}?watch=1&resourceVersion=${rv}`,
        (e) => this.apply(kind, e.type, e.object as Mirrored),
        this.abort.signal,
      )
      .catch((e) => this.errors.push(`watch ${path}: ${e}`));
  }

  private apply(kind: KindName, type: string, obj: Mirrored): void {
    if (type !== "ADDED" && type !== "MODIFIED" && type !== "DELETED") return;
    const bucket = this.ctx.resources.find(...(KINDS[kind] as unknown as [string, string, string]))
      ?.bucket as string;
    const meta = obj.metadata;
    const key = meta.namespace ? `${meta.namespace}/${meta.name}` : String(meta.name);
    const held = this.ctx.store.get(bucket, key);
    if (type === "DELETED") {
      this.versions.delete(this.id(kind, meta));
      if (held) this.ctx.store.delete(bucket, key);
      return;
    }
    this.versions.set(this.id(kind, meta), String(meta.resourceVersion));
    const { resourceVersion: _remote, ...rest } = meta;
    const local = { ...obj, metadata: rest };
    if (held) this.ctx.store.update(bucket, key, local);
    else this.ctx.store.create(bucket, key, local);
  }
}
