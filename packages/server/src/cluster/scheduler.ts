/**
 * The simulated kube-scheduler: a pod with no node and the default scheduler is bound to a node it
 * fits (fit.ts), the one with the fewest pods (ties: by name), as a binding does: spec.nodeName
 * and a PodScheduled condition. A pod no node fits gets PodScheduled False, reason Unschedulable,
 * with upstream's message, and is tried again when nodes or pods change.
 */
import type { coreV1 } from "@kubesdk/models";
import type { StoreEvent } from "../storage/mvcc.js";
import { misfit, unschedulableMessage } from "./fit.js";
import { WorkLoop } from "./loop.js";
import { type ClusterAccess, keyOf, sameJson, withCondition } from "./objects.js";

type Pod = coreV1.Pod & { metadata: { name?: string } };
type Node = coreV1.Node & { metadata: { name?: string } };

const TERMINAL = new Set(["Succeeded", "Failed"]);

function waiting(pod: Pod): boolean {
  const scheduler = pod.spec?.schedulerName ?? "default-scheduler";
  return !pod.spec?.nodeName && scheduler === "default-scheduler" && !pod.metadata.deletionTimestamp;
}

function nodeReady(node: Node): boolean {
  return node.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true;
}

export class Scheduler {
  private readonly loop: WorkLoop;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly access: ClusterAccess,
    log?: (line: string) => void,
  ) {
    this.loop = new WorkLoop((key) => this.schedule(key), log);
    const pods = access.resource("pods").bucket;
    const nodes = access.resource("nodes").bucket;
    this.unsubscribe = access.ctx.store.subscribe((e) => this.onEvent(e, pods, nodes));
    this.retryAll();
  }

  close(): void {
    this.unsubscribe();
    this.loop.close();
  }

  private onEvent(e: StoreEvent, pods: string, nodes: string): void {
    if (e.bucket === nodes) this.retryAll();
    else if (e.bucket === pods) {
      if (e.type !== "DELETED" && waiting(e.object as Pod)) this.loop.add(e.key);
      // A pod leaving a node frees room for those waiting.
      else if (e.type === "DELETED" || TERMINAL.has(String((e.object as Pod).status?.phase))) this.retryAll();
    }
  }

  private retryAll(): void {
    for (const pod of this.access.list<Pod>("pods")) if (waiting(pod)) this.loop.add(keyOf(pod.metadata));
  }

  private async schedule(key: string): Promise<void> {
    const a = this.access;
    const pod = a.get<Pod>("pods", key);
    if (!pod || !waiting(pod)) return;
    const nodes = a
      .list<Node>("nodes")
      .sort((x, y) => String(x.metadata.name).localeCompare(String(y.metadata.name)));
    const byNode = new Map<string, Pod[]>();
    for (const p of a.list<Pod>("pods")) {
      const node = p.spec?.nodeName;
      if (node && !TERMINAL.has(String(p.status?.phase))) byNode.set(node, [...(byNode.get(node) ?? []), p]);
    }
    const reasons: string[] = [];
    let best: Node | undefined;
    for (const node of nodes) {
      const onNode = byNode.get(String(node.metadata.name)) ?? [];
      const why = nodeReady(node)
        ? misfit(pod, node, onNode)
        : "node(s) had untolerated taint {node.kubernetes.io/not-ready: }";
      if (why !== undefined) reasons.push(why);
      else if (!best || onNode.length < (byNode.get(String(best.metadata.name)) ?? []).length) best = node;
    }
    if (best) return this.bind(pod, String(best.metadata.name));
    await this.unschedulable(pod, unschedulableMessage(nodes.length, reasons));
  }

  private bind(pod: Pod, node: string): void {
    const condition = { type: "PodScheduled", status: "True", lastTransitionTime: this.access.now() };
    const status = {
      ...pod.status,
      conditions: withCondition<coreV1.PodCondition>(pod.status?.conditions, condition),
    };
    this.access.replace("pods", keyOf(pod.metadata), {
      ...pod,
      metadata: pod.metadata,
      spec: { ...pod.spec, nodeName: node },
      status,
    } as never);
  }

  private async unschedulable(pod: Pod, message: string): Promise<void> {
    const condition = {
      type: "PodScheduled",
      status: "False",
      reason: "Unschedulable",
      message,
      lastTransitionTime: this.access.now(),
    };
    const conditions = withCondition<coreV1.PodCondition>(pod.status?.conditions, condition);
    if (
      sameJson(
        conditions.map((c) => [c.type, c.status, c.message]),
        (pod.status?.conditions ?? []).map((c) => [c.type, c.status, c.message]),
      )
    )
      return;
    await this.access.update("pods", { ...pod, status: { ...pod.status, conditions } }, "status");
  }
}
