/**
 * What the kubelets of a cluster would do, done from here: register Nodes
 * with a Ready status, renew their node Leases, start pods bound to them
 * (Running and Ready, or exited as the outcome rule says: by default Job pods
 * succeed at once) and finish pods being deleted (the final grace-0 delete a
 * kubelet sends).
 */
import type { Cluster } from "./cluster.js";

export const NODES = ["node-1", "node-2"];
const TICK_MS = 500;
const LEASE_RENEW_MS = 5_000;

const microTime = (d: Date) => d.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

// biome-ignore lint/suspicious/noExplicitAny: pods are read as plain JSON.
type Pod = any;

/** What a started pod's containers do: keep running, or exit with a code (0: Succeeded, else Failed). */
export type PodOutcome = { readonly running: true } | { readonly exitCode: number };

/** The components suite's rule: Job pods complete at once, other pods run. */
export const jobsComplete = (pod: Pod): PodOutcome => {
  const job = (pod.metadata.ownerReferences ?? []).some((o: { kind: string }) => o.kind === "Job");
  return job ? { exitCode: 0 } : { running: true };
};

export class FakeKubelet {
  private timer: NodeJS.Timeout | undefined;
  private lastLease = 0;
  private busy = false;
  private podIp = 10;
  /** Errors of the last ticks, reported when a scenario fails. */
  readonly errors: string[] = [];

  constructor(
    private readonly c: Cluster,
    private readonly outcome: (pod: Pod) => PodOutcome = jobsComplete,
  ) {}

  async start(): Promise<void> {
    for (const [i, name] of NODES.entries()) {
      const node = {
        apiVersion: "v1",
        kind: "Node",
        metadata: { name, labels: { "kubernetes.io/hostname": name, "kubernetes.io/os": "linux" } },
        spec: { podCIDR: `10.244.${i}.0/24`, podCIDRs: [`10.244.${i}.0/24`] },
      };
      const created = await this.c.call("POST", "/api/v1/nodes", node);
      if (created.status !== 201)
        throw new Error(`node ${name}: ${created.status} ${JSON.stringify(created.json)}`);
      await this.c.call("PUT", `/api/v1/nodes/${name}/status`, { ...created.json, status: nodeStatus(i) });
    }
    await this.renewLeases();
    this.timer = setInterval(() => void this.tick(), TICK_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      if (Date.now() - this.lastLease > LEASE_RENEW_MS) await this.renewLeases();
      const pods = await this.c.call("GET", "/api/v1/pods?fieldSelector=spec.nodeName%21%3D");
      for (const pod of (pods.json.items ?? []) as Pod[]) await this.sync(pod);
    } catch (e) {
      this.errors.push(String(e));
    } finally {
      this.busy = false;
    }
  }

  private async sync(pod: Pod): Promise<void> {
    const { namespace, name, uid } = pod.metadata;
    const path = `/api/v1/namespaces/${namespace}/pods/${name}`;
    if (pod.metadata.deletionTimestamp) {
      await this.c.call("DELETE", path, { gracePeriodSeconds: 0, preconditions: { uid } });
      return;
    }
    if (pod.status?.phase !== "Pending") return;
    const outcome = this.outcome(pod);
    const exitCode = "exitCode" in outcome ? outcome.exitCode : undefined;
    const done = exitCode !== undefined;
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
    const ip = `10.244.${NODES.indexOf(pod.spec.nodeName)}.${this.podIp++ % 250}`;
    const reason = exitCode === 0 ? "Completed" : "Error";
    const containers = (pod.spec.containers as { name: string; image: string }[]).map((c) => ({
      name: c.name,
      image: c.image,
      imageID: "",
      ready: !done,
      restartCount: 0,
      started: !done,
      state: done
        ? { terminated: { exitCode, reason, startedAt: now, finishedAt: now } }
        : { running: { startedAt: now } },
    }));
    const cond = (type: string, status: string) => ({
      type,
      status,
      lastProbeTime: null,
      lastTransitionTime: now,
    });
    const ready = done ? "False" : "True";
    const status = {
      ...pod.status,
      phase: !done ? "Running" : exitCode === 0 ? "Succeeded" : "Failed",
      hostIP: "192.168.0.1",
      podIP: ip,
      podIPs: [{ ip }],
      startTime: now,
      conditions: [
        cond("Initialized", "True"),
        cond("Ready", ready),
        cond("ContainersReady", ready),
        cond("PodScheduled", "True"),
      ],
      containerStatuses: containers,
    };
    await this.c.call("PUT", `${path}/status`, { ...pod, status });
  }

  private async renewLeases(): Promise<void> {
    this.lastLease = Date.now();
    for (const name of NODES) {
      const path = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}`;
      const spec = { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microTime(new Date()) };
      const got = await this.c.call("GET", path);
      if (got.status === 404)
        await this.c.call("POST", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases", {
          metadata: { name },
          spec,
        });
      else await this.c.call("PUT", path, { ...got.json, spec: { ...got.json.spec, ...spec } });
    }
  }
}

function nodeStatus(i: number) {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  const resources = { cpu: "4", memory: "8Gi", pods: "110", "ephemeral-storage": "50Gi" };
  return {
    capacity: resources,
    allocatable: resources,
    conditions: [
      {
        type: "Ready",
        status: "True",
        reason: "KubeletReady",
        message: "kubelet is posting ready status",
        lastHeartbeatTime: now,
        lastTransitionTime: now,
      },
      {
        type: "MemoryPressure",
        status: "False",
        reason: "KubeletHasSufficientMemory",
        message: "ok",
        lastHeartbeatTime: now,
        lastTransitionTime: now,
      },
      {
        type: "DiskPressure",
        status: "False",
        reason: "KubeletHasNoDiskPressure",
        message: "ok",
        lastHeartbeatTime: now,
        lastTransitionTime: now,
      },
      {
        type: "PIDPressure",
        status: "False",
        reason: "KubeletHasSufficientPID",
        message: "ok",
        lastHeartbeatTime: now,
        lastTransitionTime: now,
      },
    ],
    addresses: [
      { type: "InternalIP", address: `192.168.0.${i + 1}` },
      { type: "Hostname", address: NODES[i] },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: "",
      systemUUID: "",
      bootID: "",
      kernelVersion: "6.0.0",
      osImage: "kubesdk fake node",
      containerRuntimeVersion: "fake://1.0",
      kubeletVersion: "v1.37.1",
      kubeProxyVersion: "",
      operatingSystem: "linux",
      architecture: "amd64",
    },
  };
}
