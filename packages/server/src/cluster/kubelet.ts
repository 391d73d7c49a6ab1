/**
 * The simulated kubelets of the configured nodes, in process and on the store: node registration
 * and heartbeats (node-agent.ts), the life of the pods bound to those nodes (pod-lifecycle.ts) and
 * their graceful termination (termination.ts). Pods on other nodes (a real kubelet's) and pods of a
 * stopped node are left alone.
 */
import type { coreV1 } from "@kubesdk/models";
import type { StoreEvent } from "../storage/mvcc.js";
import type { PodBehaviours } from "./behaviour.js";
import { WorkLoop } from "./loop.js";
import { NodeAgent, type SimulatedNodeConfig } from "./node-agent.js";
import type { ClusterAccess } from "./objects.js";
import { type LifecycleTiming, PodLifecycle } from "./pod-lifecycle.js";
import { Termination } from "./termination.js";

type Pod = coreV1.Pod & { metadata: { name?: string; uid?: string; namespace?: string } };

export interface KubeletSettings extends LifecycleTiming {
  readonly nodes: readonly SimulatedNodeConfig[];
  /** How often a node renews its Lease (upstream: 10 s). */
  readonly heartbeatMs: number;
  readonly behaviours: PodBehaviours;
}

export class SimulatedKubelets {
  readonly nodes: NodeAgent;
  private readonly loop: WorkLoop;
  private readonly lifecycle: PodLifecycle;
  private readonly termination: Termination;
  private readonly unsubscribe: () => void;
  private readonly unlisten: () => void;

  constructor(
    private readonly access: ClusterAccess,
    settings: KubeletSettings,
    log?: (line: string) => void,
  ) {
    this.loop = new WorkLoop((key) => this.sync(key), log);
    this.nodes = new NodeAgent(access, [...settings.nodes], this.loop, settings.heartbeatMs);
    const later = (key: string, ms: number) => this.loop.add(key, ms);
    const b = settings.behaviours;
    this.lifecycle = new PodLifecycle(
      access,
      this.nodes,
      () => b.stages(),
      (pod) => b.ownOf(pod),
      settings,
      later,
    );
    this.termination = new Termination(access, this.lifecycle, later);
    const pods = access.resource("pods").bucket;
    this.unsubscribe = access.ctx.store.subscribe((e) => this.onEvent(e, pods));
    this.unlisten = b.onChange((key) => (key ? this.loop.add(key) : this.resyncPods()));
    for (const n of settings.nodes) this.loop.add(`node:${n.name}`);
    this.resyncPods();
  }

  close(): void {
    this.unsubscribe();
    this.unlisten();
    this.loop.close();
  }

  /** Looks at every pod again (a node started again, a behaviour changed). */
  resyncPods(): void {
    for (const pod of this.access.list<Pod>("pods"))
      if (this.nodes.runs(String(pod.spec?.nodeName)))
        this.loop.add(`${pod.metadata.namespace}/${pod.metadata.name}`);
  }

  private onEvent(e: StoreEvent, pods: string): void {
    if (e.bucket !== pods) return;
    const pod = e.object as Pod;
    if (e.type === "DELETED") this.lifecycle.forget(String(pod.metadata.uid));
    else if (this.nodes.runs(String(pod.spec?.nodeName))) this.loop.add(e.key);
  }

  private async sync(key: string): Promise<void> {
    if (key.startsWith("node:")) return this.nodes.sync(key.slice("node:".length));
    const pod = this.access.get<Pod>("pods", key);
    if (!pod || !this.nodes.runs(String(pod.spec?.nodeName))) return;
    if (pod.metadata.deletionTimestamp) return this.termination.sync(key, pod);
    return this.lifecycle.sync(key, pod);
  }
}
