/**
 * The scenarios of the components suite. Each drives the cluster through
 * kubectl, the SDK or plain requests, waits for the controllers and returns
 * what it observed, in a form that does not depend on timing or names the
 * server generates, so the reference server's and the real one's agree.
 */
import { Kube } from "@kubesdk/client";
import { type Cluster, NODES } from "./cluster.js";
import { until } from "./wait.js";

export type Observation = Record<string, unknown>;
export interface Scenario {
  readonly name: string;
  run(c: Cluster): Promise<Observation>;
}

const IMAGE = "registry.k8s.io/pause:3.10";
/** A container that exits 0 at once (the pause image runs until killed, on a real kubelet too). */
export const FINISHES = { name: "c", image: "busybox:1.37", command: ["sh", "-c", "exit 0"] };
const IMAGE2 = "registry.k8s.io/pause:3.9";

async function namespace(c: Cluster, name: string): Promise<void> {
  await c.call("POST", "/api/v1/namespaces", { metadata: { name } });
  // ServiceAccount admission (real server) needs the default account the serviceaccount controller makes.
  await until(
    `serviceaccount ${name}/default`,
    async () => (await c.call("GET", `/api/v1/namespaces/${name}/serviceaccounts/default`)).status === 200,
  );
}

const deployment = (name: string, replicas: number, image = IMAGE) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image }] } },
  },
});

async function pods(c: Cluster, ns: string, selector: string) {
  return (await c.call("GET", `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(selector)}`))
    .json.items as {
    metadata: { name: string; deletionTimestamp?: string };
    spec: { nodeName?: string };
    status: { phase: string };
  }[];
}

async function deploymentSettled(c: Cluster, ns: string, name: string, replicas: number) {
  return until(`deployment ${name} at ${replicas}`, async () => {
    const d = (await c.call("GET", `/apis/apps/v1/namespaces/${ns}/deployments/${name}`)).json;
    const s = d.status ?? {};
    const settled =
      s.observedGeneration === d.metadata.generation &&
      (s.replicas ?? 0) === replicas &&
      (s.updatedReplicas ?? 0) === replicas &&
      (s.availableReplicas ?? 0) === replicas &&
      (s.readyReplicas ?? 0) === replicas;
    const ps = (await pods(c, ns, `app=${name}`)).filter((p) => !p.metadata.deletionTimestamp);
    return settled && ps.length === replicas ? { status: s, pods: ps } : undefined;
  });
}

async function replicaSetCounts(c: Cluster, ns: string, app: string) {
  const rs = (await c.call("GET", `/apis/apps/v1/namespaces/${ns}/replicasets?labelSelector=app%3D${app}`))
    .json.items;
  return (rs as { spec: { replicas: number } }[]).map((r) => r.spec.replicas).sort();
}

/** Waits until exactly `count` pods run `image` and no other pod of the app is left (the old ones go). */
async function podsOnImage(c: Cluster, ns: string, image: string, count: number): Promise<number> {
  return until(`${count} pods on ${image}`, async () => {
    const all = (await c.call("GET", `/api/v1/namespaces/${ns}/pods?labelSelector=app%3Dweb`)).json.items as {
      spec: { containers: { image: string }[] };
    }[];
    const onImage = all.filter((p) => p.spec.containers[0]?.image === image).length;
    return all.length === count && onImage === count ? onImage : undefined;
  });
}

const leaderElection: Scenario = {
  name: "leases acquired and renewed",
  async run(c) {
    const lease = (n: string) =>
      c.call("GET", `/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/${n}`);
    const out: Observation = {};
    for (const n of ["kube-controller-manager", "kube-scheduler"]) {
      const first = await until(`lease ${n}`, async () => {
        const l = await lease(n);
        return l.status === 200 && l.json.spec?.holderIdentity ? l.json : undefined;
      });
      await until(
        `lease ${n} renewed`,
        async () => (await lease(n)).json.spec.renewTime !== first.spec.renewTime,
        30_000,
      );
      out[n] = { held: true, renewed: true, leaseDurationSeconds: first.spec.leaseDurationSeconds };
    }
    return out;
  },
};

const nodesReady: Scenario = {
  name: "nodes Ready",
  async run(c) {
    const text = await c.kubectl(
      "get",
      "nodes",
      "-o",
      'jsonpath={range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Ready")].status} {end}',
    );
    // The node lifecycle controller takes the nodes in; none gets a NotReady taint.
    await until("nodes without taints", async () => {
      const nodes = (await c.call("GET", "/api/v1/nodes")).json.items as { spec: { taints?: unknown[] } }[];
      return nodes.every((n) => (n.spec.taints ?? []).length === 0);
    });
    return { nodes: text.trim().split(" ").sort() };
  },
};

const rollout: Scenario = {
  name: "deployment rollout, scale, image change",
  async run(c) {
    const ns = "c-deploy";
    await namespace(c, ns);
    const kube = await Kube.fromKubeconfig({ kubeconfig: { path: c.kubeconfigPath }, namespace: ns });
    await kube.resource("apps/v1", "Deployment").create(deployment("web", 3) as never);
    const first = await deploymentSettled(c, ns, "web", 3);
    const bound = first.pods.every((p) => NODES.includes(p.spec.nodeName ?? ""));
    const afterCreate = await replicaSetCounts(c, ns, "web");
    await c.kubectl("scale", "-n", ns, "deployment/web", "--replicas=5");
    await deploymentSettled(c, ns, "web", 5);
    await c.kubectl("scale", "-n", ns, "deployment/web", "--replicas=2");
    await deploymentSettled(c, ns, "web", 2);
    await c.kubectl("set", "image", "-n", ns, "deployment/web", `c=${IMAGE2}`);
    await c.kubectl("rollout", "status", "-n", ns, "deployment/web", "--timeout=120s");
    const final = await deploymentSettled(c, ns, "web", 2);
    await until("old replica set scaled to 0", async () => {
      const counts = await replicaSetCounts(c, ns, "web");
      return counts.length === 2 && counts[0] === 0;
    });
    const rsList = await kube.resource("apps/v1", "ReplicaSet").list();
    return {
      boundByScheduler: bound,
      replicaSetsAfterCreate: afterCreate,
      replicaSetsAfterImageChange: await replicaSetCounts(c, ns, "web"),
      replicaSetsOwnedByDeployment: rsList.items.every(
        (r) => r.metadata?.ownerReferences?.[0]?.kind === "Deployment",
      ),
      finalStatus: {
        replicas: final.status.replicas,
        updated: final.status.updatedReplicas,
        available: final.status.availableReplicas,
      },
      podsOnNewImage: await podsOnImage(c, ns, IMAGE2, 2),
    };
  },
};

const jobs: Scenario = {
  name: "job runs pods to completion",
  async run(c) {
    const ns = "c-job";
    await namespace(c, ns);
    const job = {
      metadata: { name: "pi" },
      spec: {
        completions: 2,
        parallelism: 1,
        template: { spec: { restartPolicy: "Never", containers: [FINISHES] } },
      },
    };
    await c.call("POST", `/apis/batch/v1/namespaces/${ns}/jobs`, job);
    const done = await until("job complete", async () => {
      const j = (await c.call("GET", `/apis/batch/v1/namespaces/${ns}/jobs/pi`)).json;
      const complete = (j.status?.conditions ?? []).some(
        (x: { type: string; status: string }) => x.type === "Complete" && x.status === "True",
      );
      return complete ? j : undefined;
    });
    const ps = await pods(c, ns, "job-name=pi");
    // kube-scheduler reports through events.k8s.io/v1; kubectl reads events through core v1.
    const scheduled = await until("scheduler events through core v1", async () => {
      const list = (await c.call("GET", `/api/v1/namespaces/${ns}/events?fieldSelector=reason%3DScheduled`))
        .json;
      return list.items?.length > 0
        ? (list.items as { involvedObject: { kind: string }; reportingComponent: string }[])
        : undefined;
    });
    return {
      schedulerEventsInCoreApi: scheduled.every(
        (e) => e.involvedObject.kind === "Pod" && e.reportingComponent === "default-scheduler",
      ),
      succeeded: done.status.succeeded,
      selectorOnUid:
        done.spec.selector.matchLabels["batch.kubernetes.io/controller-uid"] === done.metadata.uid,
      pods: ps.length,
      phases: ps.map((p) => p.status.phase).sort(),
    };
  },
};

export const SCENARIOS_A: readonly Scenario[] = [leaderElection, nodesReady, rollout, jobs];
