/**
 * The node half of the simulated kubelets: each configured node is registered with a Ready status,
 * its capacity, labels and taints, and renews its Lease in `kube-node-lease` every heartbeat, as a
 * kubelet does. A stopped node (node loss) renews nothing until it is started again, when it posts
 * Ready once more.
 */
import { randomUUID } from "node:crypto";
import type { coordinationV1, coreV1 } from "@kubesdk/models";
import { StatusError } from "../api/status.js";
import type { StoredObject } from "../storage/mvcc.js";
import type { WorkLoop } from "./loop.js";
import {
  createdLease,
  createdNode,
  nodeWithStatus,
  rememberTemplatedNode,
  templatedNode,
} from "./node-templates.js";
import type { ClusterAccess } from "./objects.js";

export interface SimulatedNodeConfig {
  readonly name: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly taints?: readonly coreV1.Taint[];
  /** Default: 4 CPUs, 8Gi of memory, 110 pods, 50Gi of ephemeral storage. */
  readonly capacity?: Readonly<Record<string, string>>;
}

const DEFAULT_CAPACITY = { cpu: "4", memory: "8Gi", pods: "110", "ephemeral-storage": "50Gi" };
const LEASE_NAMESPACE = "kube-node-lease";
const LEASE_SECONDS = 40;

const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

function readyCondition(ready: boolean, now: string) {
  return {
    type: "Ready",
    status: ready ? "True" : "Unknown",
    reason: ready ? "KubeletReady" : "NodeStatusUnknown",
    message: ready ? "kubelet is posting ready status" : "Kubelet stopped posting node status.",
    lastHeartbeatTime: now,
    lastTransitionTime: now,
  };
}

const PRESSURES = [
  ["MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"],
  ["DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"],
  ["PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"],
] as const;

/** The status a simulated kubelet posts for its node. */
export function nodeStatus(config: SimulatedNodeConfig, index: number, now: string): coreV1.NodeStatus {
  const resources = { ...DEFAULT_CAPACITY, ...config.capacity };
  return {
    capacity: resources,
    allocatable: resources,
    phase: "Running",
    conditions: [
      ...PRESSURES.map(([type, reason, message]) => ({
        type,
        status: "False",
        reason,
        message,
        lastHeartbeatTime: now,
        lastTransitionTime: now,
      })),
      readyCondition(true, now),
    ],
    addresses: [
      { type: "InternalIP", address: `192.168.0.${index + 1}` },
      { type: "Hostname", address: config.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: "",
      systemUUID: "",
      bootID: "",
      kernelVersion: "6.0.0",
      osImage: "kubesdk simulated node",
      containerRuntimeVersion: "kubesdk://1.0",
      kubeletVersion: "v1.37.1",
      kubeProxyVersion: "",
      operatingSystem: "linux",
      architecture: "amd64",
    },
  };
}

export class NodeAgent {
  readonly stopped = new Set<string>();

  constructor(
    private readonly access: ClusterAccess,
    private readonly nodes: SimulatedNodeConfig[],
    private readonly loop: WorkLoop,
    private readonly heartbeatMs: number,
  ) {}

  /** Index of a simulated node (its address and pod CIDR), -1 for nodes this agent does not run. */
  indexOf(name: string): number {
    return this.nodes.findIndex((n) => n.name === name);
  }

  /** Whether this agent's kubelet runs on the node now. */
  runs(name: string): boolean {
    return this.indexOf(name) >= 0 && !this.stopped.has(name);
  }

  add(config: SimulatedNodeConfig): void {
    if (this.indexOf(config.name) < 0) this.nodes.push(config);
    this.loop.add(`node:${config.name}`);
  }

  stop(name: string): void {
    this.stopped.add(name);
  }

  start(name: string): void {
    this.stopped.delete(name);
    this.loop.add(`node:${name}`);
  }

  async sync(name: string): Promise<void> {
    const index = this.indexOf(name);
    const config = this.nodes[index];
    if (!config || this.stopped.has(name)) return;
    // Through a remote server (scripts/components) the new node shows once its watch event arrives.
    if (!(await this.register(config, index))) return this.loop.add(`node:${name}`, 20);
    await this.renewLease(config);
    this.loop.add(`node:${name}`, this.heartbeatMs);
  }

  /** Creates the node and posts Ready; false while the node is not visible yet. */
  private async register(config: SimulatedNodeConfig, index: number): Promise<boolean> {
    const a = this.access;
    if (!a.get("nodes", config.name) && this.templated(config)) {
      const time = a.now();
      const created = a.commit("nodes", config.name, createdNode(config.name, index, randomUUID(), time));
      const ready = nodeWithStatus(created, nodeStatus(config, index, time), time);
      rememberTemplatedNode(a.commit("nodes", config.name, ready));
      return true;
    }
    if (!a.get("nodes", config.name)) {
      const spec = { podCIDR: `10.244.${index}.0/24`, podCIDRs: [`10.244.${index}.0/24`] };
      const labels = {
        "kubernetes.io/hostname": config.name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        ...config.labels,
      };
      try {
        await a.create("nodes", undefined, {
          metadata: { name: config.name, labels },
          spec: { ...spec, ...(config.taints?.length ? { taints: config.taints } : {}) },
        });
      } catch (e) {
        if (!(e instanceof StatusError) || e.status.code !== 409) throw e;
      }
    }
    const node = a.get<coreV1.Node>("nodes", config.name);
    if (!node) return false;
    const ready = node.status?.conditions?.find((c) => c.type === "Ready");
    if (ready?.status !== "True") {
      const status = nodeStatus(config, index, a.now());
      await a.update("nodes", { ...node, status }, "status");
    }
    return true;
  }

  /**
   * Whether the node's start-up writes may be committed from templates (node-templates.ts): a
   * plain node, nothing configured to change the writes, and no other node or pod whose writes the
   * write path's pauses would interleave with these (an order a watcher could see).
   */
  private templated(config: SimulatedNodeConfig): boolean {
    const a = this.access;
    if (this.nodes.length !== 1 || !templatedNode(config) || !a.templated()) return false;
    return a.ctx.store.count(a.resource("pods").bucket) === 0;
  }

  private async renewLease(config: SimulatedNodeConfig): Promise<void> {
    const a = this.access;
    const name = config.name;
    const spec = {
      holderIdentity: name,
      leaseDurationSeconds: LEASE_SECONDS,
      renewTime: microTime(a.ctx.now()),
    };
    const lease = a.get<coordinationV1.Lease>("leases", `${LEASE_NAMESPACE}/${name}`);
    if (!lease) {
      const node = a.get<coreV1.Node>("nodes", name);
      if (node && this.templated(config)) {
        const created = createdLease(node as StoredObject, spec, randomUUID(), a.now());
        a.commit("leases", `${LEASE_NAMESPACE}/${name}`, created);
        return;
      }
      const owner = node && { apiVersion: "v1", kind: "Node", name, uid: String(node.metadata.uid) };
      await a.create("leases", LEASE_NAMESPACE, {
        metadata: { name, namespace: LEASE_NAMESPACE, ...(owner ? { ownerReferences: [owner] } : {}) },
        spec,
      });
      return;
    }
    await a.update("leases", { ...lease, spec: { ...lease.spec, ...spec } });
  }
}

export { readyCondition };
