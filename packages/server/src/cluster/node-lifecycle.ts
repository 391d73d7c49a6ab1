/**
 * The simulated node lifecycle and pod garbage collection of kube-controller-manager: a node whose
 * kubelet stops renewing its Lease for longer than the grace period is marked Ready Unknown and
 * tainted `node.kubernetes.io/unreachable` (NoSchedule and NoExecute); its pods are marked not Ready
 * and those not tolerating the NoExecute taint are evicted (a DisruptionTarget condition, then a
 * delete; a toleration's tolerationSeconds is waited out). A node renewing again loses the taints,
 * and a Ready node loses the `not-ready` NoSchedule taint it was created with.
 * Pods bound to a node that has not existed for 40 s are deleted. Only nodes with a Lease are watched:
 * a Node object with no kubelet behind it never heartbeats at all (a simplification, see FC2).
 */
import type { coordinationV1, coreV1 } from "@kubesdk/models";
import type { StoredObject, StoreEvent } from "../storage/mvcc.js";
import { untolerated } from "./fit.js";
import { WorkLoop } from "./loop.js";
import { isTemplatedNode, untaintedNode } from "./node-templates.js";
import { type ClusterAccess, keyOf, withCondition } from "./objects.js";

type Node = coreV1.Node & { metadata: { name?: string } };
type Pod = coreV1.Pod & { metadata: { name?: string; namespace?: string } };

const UNREACHABLE = "node.kubernetes.io/unreachable";
/** The taint TaintNodesByCondition admission gives every new node (admission/plugins/taint-nodes-by-condition.ts). */
const NOT_READY = "node.kubernetes.io/not-ready";
const isNotReadyTaint = (t: coreV1.Taint) => t.key === NOT_READY && t.effect === "NoSchedule";
const isReady = (node: Node) =>
  node.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true;
/** How long a pod's node must stay missing before the pod is collected (upstream's quarantine). */
const ORPHAN_QUARANTINE_MS = 40_000;
const LEASES = "kube-node-lease";

export class NodeLifecycle {
  private readonly loop: WorkLoop;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly access: ClusterAccess,
    private readonly graceMs: number,
    log?: (line: string) => void,
  ) {
    this.loop = new WorkLoop((key) => this.sync(key), log);
    const buckets = { leases: access.resource("leases").bucket, nodes: access.resource("nodes").bucket };
    const pods = access.resource("pods").bucket;
    this.unsubscribe = access.ctx.store.subscribe((e) =>
      this.onEvent(e, buckets.leases, buckets.nodes, pods),
    );
    for (const node of access.list<Node>("nodes")) this.loop.add(String(node.metadata.name));
    for (const pod of access.list<Pod>("pods"))
      if (pod.spec?.nodeName) this.loop.add(`orphan:${keyOf(pod.metadata)}`, ORPHAN_QUARANTINE_MS);
  }

  close(): void {
    this.unsubscribe();
    this.loop.close();
  }

  private onEvent(e: StoreEvent, leases: string, nodes: string, pods: string): void {
    if (e.bucket === leases && e.key.startsWith(`${LEASES}/`)) this.loop.add(e.key.slice(LEASES.length + 1));
    else if (e.bucket === nodes) {
      this.loop.add(e.key);
      if (e.type === "DELETED")
        for (const pod of this.access.list<Pod>("pods"))
          if (pod.spec?.nodeName === e.key)
            this.loop.add(`orphan:${keyOf(pod.metadata)}`, ORPHAN_QUARANTINE_MS);
    } else if (e.bucket === pods && e.type === "ADDED" && (e.object as Pod).spec?.nodeName)
      this.loop.add(`orphan:${e.key}`, ORPHAN_QUARANTINE_MS);
  }

  private async sync(key: string): Promise<void> {
    if (key.startsWith("orphan:")) return this.collectOrphan(key.slice("orphan:".length));
    const node = this.access.get<Node>("nodes", key);
    const lease = this.access.get<coordinationV1.Lease>("leases", `${LEASES}/${key}`);
    const renewed = lease?.spec?.renewTime ? Date.parse(lease.spec.renewTime) : undefined;
    if (!node || renewed === undefined) return;
    const silentFor = this.access.ctx.now() - renewed;
    const lost = silentFor > this.graceMs;
    if (!lost) this.loop.add(key, this.graceMs - silentFor + 1);
    const taints = node.spec?.taints ?? [];
    const tainted = taints.some((t) => t.key === UNREACHABLE);
    if (lost && !tainted) await this.markLost(node);
    else if (!lost && tainted) await this.markBack(node, UNREACHABLE);
    else if (!lost && isReady(node) && taints.some(isNotReadyTaint)) await this.markBack(node, NOT_READY);
    if (lost) await this.evictPods(key);
  }

  private async markLost(node: Node): Promise<void> {
    const now = this.access.now();
    const conditions = (node.status?.conditions ?? []).map((c) => ({
      ...c,
      status: "Unknown",
      reason: "NodeStatusUnknown",
      message: "Kubelet stopped posting node status.",
      lastTransitionTime: now,
    }));
    await this.access.update("nodes", { ...node, status: { ...node.status, conditions } }, "status");
    const fresh = this.access.get<Node>("nodes", String(node.metadata.name)) as Node;
    const taints = [
      ...(fresh.spec?.taints ?? []),
      { key: UNREACHABLE, effect: "NoSchedule", timeAdded: now },
      { key: UNREACHABLE, effect: "NoExecute", timeAdded: now },
    ];
    await this.access.update("nodes", { ...fresh, spec: { ...fresh.spec, taints } });
  }

  /**
   * Drops the taints with `key`: the node is reachable again, or (not-ready) Ready at last. The
   * not-ready taint of a node the kubelet's templates made, untouched since, goes by a template
   * (node-templates.ts) while nothing configured could change the write.
   */
  private async markBack(node: Node, key: string): Promise<void> {
    if (key === NOT_READY && isTemplatedNode(node) && this.access.templated()) {
      const name = String(node.metadata.name);
      this.access.commit("nodes", name, untaintedNode(node as StoredObject));
      return;
    }
    const taints = (node.spec?.taints ?? []).filter((t) => t.key !== key);
    await this.access.update("nodes", { ...node, spec: { ...node.spec, taints } });
  }

  /** Pods of a lost node: not Ready, and evicted unless they tolerate being unreachable (for a while). */
  private async evictPods(nodeName: string): Promise<void> {
    const node = this.access.get<Node>("nodes", nodeName);
    const taints = (node?.spec?.taints ?? []).filter((t) => t.key === UNREACHABLE);
    const now = this.access.ctx.now();
    for (const pod of this.access.list<Pod>("pods")) {
      if (pod.spec?.nodeName !== nodeName || pod.metadata.deletionTimestamp) continue;
      const ready = pod.status?.conditions?.find((c) => c.type === "Ready");
      if (ready?.status === "True") await this.setCondition(pod, "Ready", "False", "NodeLost", "");
      const tolerated = (pod.spec?.tolerations ?? []).find(
        (t) => t.key === UNREACHABLE && t.effect !== "NoSchedule",
      );
      const waitMs =
        tolerated?.tolerationSeconds !== undefined ? tolerated.tolerationSeconds * 1000 : undefined;
      const since = Date.parse(
        String(taints.find((t) => t.effect === "NoExecute")?.timeAdded ?? new Date(now).toISOString()),
      );
      if (untolerated(pod, taints, ["NoExecute"]).length === 0 && waitMs === undefined) continue;
      if (waitMs !== undefined && now < since + waitMs) {
        this.loop.add(nodeName, since + waitMs - now);
        continue;
      }
      const current = this.access.get<Pod>("pods", keyOf(pod.metadata)) as Pod;
      await this.setCondition(
        current,
        "DisruptionTarget",
        "True",
        "DeletionByTaintManager",
        "Taint manager: deleting due to NoExecute taint",
      );
      await this.access.delete("pods", current.metadata);
    }
  }

  private async setCondition(pod: Pod, type: string, status: string, reason: string, message: string) {
    const condition = { type, status, reason, message, lastTransitionTime: this.access.now() };
    const conditions = withCondition<coreV1.PodCondition>(pod.status?.conditions, condition);
    await this.access.update("pods", { ...pod, status: { ...pod.status, conditions } }, "status");
  }

  /** A pod bound to a node still missing after the quarantine is deleted (the pod garbage collector). */
  private async collectOrphan(key: string): Promise<void> {
    const pod = this.access.get<Pod>("pods", key);
    const nodeName = pod?.spec?.nodeName;
    if (!pod || !nodeName || this.access.get("nodes", nodeName)) return;
    await this.access.delete("pods", pod.metadata, 0);
  }
}
