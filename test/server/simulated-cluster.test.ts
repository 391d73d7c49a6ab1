/**
 * The simulated cluster of the reference server (reference server only: a bare kube-apiserver has
 * no scheduler, controllers or kubelets): `kubectl run` then `kubectl port-forward`, and workloads
 * from `kubectl apply` alone reaching their available or completed state.
 * Reason for reference-only: it tests the reference server's own simulated cluster, started in
 * process here on both targets (kube-apiserver alone runs no pods).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portForward, roundTrip, stop } from "../support/port-forward.js";
import {
  isTrue,
  type Json,
  type SimulatedClusterSuite,
  startSimulatedCluster,
} from "./simulated-cluster-support.js";

let c: SimulatedClusterSuite;
const ns = "default";

beforeAll(async () => {
  c = await startSimulatedCluster({
    cluster: { nodes: [{ name: "node-1" }, { name: "node-2" }, { name: "node-3" }] },
  });
});
afterAll(async () => {
  await c.stop();
});

const pods = () => c.list("/pods", ns);
const ownedBy = (name: string) => pods().filter((p: Json) => p.metadata.ownerReferences?.[0]?.name === name);

describe("simulated cluster (reference server only): workloads from kubectl", () => {
  it("kubectl run gives a Running, Ready pod on a node, and kubectl port-forward reaches it", async () => {
    const run = await c.kubectl("run", "box", "--image=busybox");
    expect(run.stdout.trim()).toBe("pod/box created");
    const wait = await c.kubectl("wait", "--for=condition=Ready", "pod/box", "--timeout=30s");
    expect(wait.stdout.trim()).toBe("pod/box condition met");
    const pod = c.get("/pods", "default/box");
    expect(pod.status.phase).toBe("Running");
    expect(pod.spec.nodeName).toMatch(/^node-[123]$/);
    expect(pod.status.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
    expect(pod.status.containerStatuses[0]).toMatchObject({
      name: "box",
      ready: true,
      started: true,
      restartCount: 0,
    });
    const forward = portForward(c.kubeconfig, ns, "pod/box", 8080, {});
    try {
      expect(await roundTrip(await forward.local, "hello box")).toBe("hello box");
    } finally {
      await stop(forward.child);
    }
  });

  it("a Deployment becomes Available and rolls out a new template", async () => {
    const deployment = (image: string) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: ${ns} }
spec:
  replicas: 3
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: web, image: ${image} }] }
`;
    await c.apply(deployment("nginx:1"));
    const status = await c.kubectl("rollout", "status", "deployment/web", "--timeout=60s");
    expect(status.stdout).toContain('deployment "web" successfully rolled out');
    expect(
      await c.kubectl("wait", "--for=condition=Available", "deployment/web", "--timeout=30s"),
    ).toMatchObject({ code: 0 });
    expect(
      ownedBy(
        c.get("apps/replicasets", `${ns}/${c.list("apps/replicasets", ns)[0].metadata.name}`).metadata.name,
      ),
    ).toHaveLength(3);
    await c.apply(deployment("nginx:2"));
    const again = await c.kubectl("rollout", "status", "deployment/web", "--timeout=60s");
    expect(again.stdout).toContain('deployment "web" successfully rolled out');
    const sets = c
      .list("apps/replicasets", ns)
      .filter((r: Json) => r.metadata.ownerReferences?.[0]?.name === "web");
    expect(
      sets
        .map((r: Json) => [r.metadata.annotations["deployment.kubernetes.io/revision"], r.spec.replicas])
        .sort(),
    ).toEqual([
      ["1", 0],
      ["2", 3],
    ]);
    const d = c.get("apps/deployments", `${ns}/web`);
    expect(d.status).toMatchObject({
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
    });
  });

  it("a Job completes; a failing Job stops at its backoffLimit", async () => {
    await c.apply(`apiVersion: batch/v1
kind: Job
metadata: { name: works, namespace: ${ns} }
spec:
  completions: 3
  parallelism: 2
  template:
    spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }
---
apiVersion: batch/v1
kind: Job
metadata: { name: fails, namespace: ${ns} }
spec:
  backoffLimit: 2
  template:
    metadata: { annotations: { sim.kubesdk.dev/exit-code: "3" } }
    spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }
`);
    expect((await c.kubectl("wait", "--for=condition=Complete", "job/works", "--timeout=60s")).code).toBe(0);
    const works = c.get("batch/jobs", `${ns}/works`).status;
    // No active pods: Go's encoding leaves the omitempty count 0 out, as on kube-apiserver.
    expect([works.succeeded, works.active]).toEqual([3, undefined]);
    expect((await c.kubectl("wait", "--for=condition=Failed", "job/fails", "--timeout=60s")).code).toBe(0);
    const failed = c.get("batch/jobs", `${ns}/fails`);
    expect(failed.status.failed).toBe(3);
    expect(failed.status.conditions.find((x: Json) => x.type === "Failed").reason).toBe(
      "BackoffLimitExceeded",
    );
    const exits = ownedBy("fails").map((p: Json) => p.status.containerStatuses[0].state.terminated.exitCode);
    expect(exits).toEqual([3, 3, 3]);
  });

  it("a StatefulSet creates its pods in order, each once the one before is Ready", async () => {
    const order: string[] = [];
    const readyBefore: boolean[] = [];
    const unsubscribe = c.server.store.subscribe((e) => {
      const name = String(e.object.metadata.name);
      if (e.bucket !== "/pods" || e.type !== "ADDED" || !name.startsWith("db-")) return;
      order.push(name);
      const ordinal = Number(name.slice(3));
      readyBefore.push(ordinal === 0 || isTrue(c.get("/pods", `${ns}/db-${ordinal - 1}`), "Ready"));
    });
    await c.apply(`apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db, namespace: ${ns} }
spec:
  replicas: 3
  serviceName: db
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec: { containers: [{ name: db, image: postgres }] }
`);
    const status = await c.kubectl("rollout", "status", "statefulset/db", "--timeout=60s");
    unsubscribe();
    expect(status.code).toBe(0);
    expect(order).toEqual(["db-0", "db-1", "db-2"]);
    expect(readyBefore).toEqual([true, true, true]);
    expect(c.get("/pods", `${ns}/db-1`).spec).toMatchObject({ hostname: "db-1", subdomain: "db" });
  });

  it("a DaemonSet runs one pod on each node", async () => {
    await c.apply(`apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent, namespace: ${ns} }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec: { containers: [{ name: agent, image: fluentd }] }
`);
    expect((await c.kubectl("rollout", "status", "daemonset/agent", "--timeout=60s")).code).toBe(0);
    const nodes = ownedBy("agent")
      .map((p: Json) => p.spec.nodeName)
      .sort();
    expect(nodes).toEqual(["node-1", "node-2", "node-3"]);
    expect(c.get("apps/daemonsets", `${ns}/agent`).status).toMatchObject({
      desiredNumberScheduled: 3,
      numberAvailable: 3,
    });
  });

  it("kubectl drain cordons a node and evicts its pods; their controllers start them on the other nodes", async () => {
    const before = pods().filter((p: Json) => p.spec.nodeName === "node-3" && !ownedBy("agent").includes(p));
    const drain = await c.kubectl("drain", "node-3", "--ignore-daemonsets", "--force", "--timeout=60s");
    expect(drain.code).toBe(0);
    expect(drain.stdout).toContain("node/node-3 drained");
    expect(c.get("/nodes", "node-3").spec.unschedulable).toBe(true);
    const left = pods().filter((p: Json) => p.spec.nodeName === "node-3");
    expect(left.every((p: Json) => p.metadata.ownerReferences?.[0]?.kind === "DaemonSet")).toBe(true);
    expect(before.length).toBeGreaterThan(0);
    expect((await c.kubectl("rollout", "status", "deployment/web", "--timeout=60s")).code).toBe(0);
    expect((await c.kubectl("rollout", "status", "statefulset/db", "--timeout=60s")).code).toBe(0);
    await c.kubectl("uncordon", "node-3");
  });
});
