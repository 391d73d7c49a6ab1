/**
 * Pods in the simulated cluster of the reference server (reference server only: a bare
 * kube-apiserver has no scheduler or kubelets): scheduling constraints, readiness set per pod,
 * exits and restarts, graceful deletion and node loss.
 * Reason for reference-only: it tests the reference server's own simulated cluster, started in
 * process here on both targets (kube-apiserver alone runs no pods).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  conditionOf,
  isTrue,
  type Json,
  type SimulatedClusterSuite,
  startSimulatedCluster,
} from "./simulated-cluster-support.js";

let c: SimulatedClusterSuite;
const ns = "default";

beforeAll(async () => {
  c = await startSimulatedCluster({
    cluster: {
      nodes: [
        { name: "small", capacity: { cpu: "1", memory: "1Gi", pods: "10" }, labels: { size: "small" } },
        { name: "tainted", taints: [{ key: "dedicated", value: "gpu", effect: "NoSchedule" }] },
        { name: "spare" },
      ],
      heartbeatMs: 50,
      nodeMonitorGraceMs: 400,
      restartBackoffMs: 20,
      maxRestartBackoffMs: 40,
    },
  });
});
afterAll(async () => {
  await c.stop();
});

const pod = (name: string, spec: object = {}, annotations: Record<string, string> = {}) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace: ns, annotations },
  spec: { containers: [{ name: "main", image: "busybox" }], ...spec },
});
const applyPod = (body: object) => c.apply(JSON.stringify(body));
const stored = (name: string) => c.get("/pods", `${ns}/${name}`);

describe("simulated cluster (reference server only): pods", () => {
  it("schedules by nodeSelector, tolerations and requests, and reports why a pod fits nowhere", async () => {
    await applyPod(pod("picky", { nodeSelector: { size: "small" } }));
    await applyPod(
      pod("tolerant", {
        nodeSelector: { "kubernetes.io/hostname": "tainted" },
        tolerations: [{ key: "dedicated", operator: "Equal", value: "gpu", effect: "NoSchedule" }],
      }),
    );
    await applyPod(
      pod("greedy", {
        containers: [{ name: "main", image: "busybox", resources: { requests: { cpu: "64" } } }],
      }),
    );
    expect(await c.until(() => stored("picky")?.spec.nodeName)).toBe("small");
    expect(await c.until(() => stored("tolerant")?.spec.nodeName)).toBe("tainted");
    const unschedulable = await c.until(
      () =>
        conditionOf(stored("greedy"), "PodScheduled")?.reason === "Unschedulable" &&
        conditionOf(stored("greedy"), "PodScheduled"),
    );
    expect(unschedulable.message).toBe(
      "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu.",
    );
    expect(stored("greedy").status.phase).toBe("Pending");
  });

  it("readiness is set per pod: by annotation at creation and by pods.behave later", async () => {
    await applyPod(pod("unready", {}, { "sim.kubesdk.dev/ready": "false" }));
    const running = await c.until(() => stored("unready")?.status?.phase === "Running" && stored("unready"));
    expect(conditionOf(running, "Ready")).toMatchObject({ status: "False", reason: "ContainersNotReady" });
    c.server.pods.behave(ns, "unready", { ready: true });
    await c.until(() => isTrue(stored("unready"), "Ready"));
    c.server.pods.behave(ns, "unready", { ready: false });
    const flipped = await c.until(
      () => conditionOf(stored("unready"), "Ready")?.status === "False" && stored("unready"),
    );
    expect(flipped.status.containerStatuses[0].ready).toBe(false);
  });

  it("status.observedGeneration follows the pod's generation when its spec changes", async () => {
    await applyPod(pod("generations"));
    const running = await c.until(
      () => stored("generations")?.status?.phase === "Running" && stored("generations"),
    );
    expect(running.status.observedGeneration).toBe(1);
    await applyPod(pod("generations", { activeDeadlineSeconds: 600 }));
    const observed = await c.until(
      () => stored("generations")?.status?.observedGeneration === 2 && stored("generations"),
    );
    expect(observed.metadata.generation).toBe(2);
  });

  it("a pod active longer than its activeDeadlineSeconds ends Failed, reason DeadlineExceeded", async () => {
    await applyPod(pod("deadline", { activeDeadlineSeconds: 1 }));
    const failed = await c.until(() => stored("deadline")?.status?.phase === "Failed" && stored("deadline"));
    expect(failed.status).toMatchObject({
      reason: "DeadlineExceeded",
      message: "Pod was active on the node longer than the specified deadline",
    });
    expect(failed.status.containerStatuses[0].state.terminated.exitCode).toBe(137);
  });

  it("exits follow restartPolicy: Never ends Failed with the exit code, Always restarts in back-off", async () => {
    await applyPod(pod("once", { restartPolicy: "Never" }, { "sim.kubesdk.dev/exit-code": "2" }));
    const failed = await c.until(() => stored("once")?.status?.phase === "Failed" && stored("once"));
    expect(failed.status.containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 2,
      reason: "Error",
    });
    await applyPod(pod("looping", {}, { "sim.kubesdk.dev/exit-code": "1" }));
    const restarted = await c.until(
      () => (stored("looping")?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 3 && stored("looping"),
    );
    expect(restarted.status.phase).toBe("Running");
    expect(restarted.status.containerStatuses[0].lastState.terminated.exitCode).toBe(1);
    await c.kubectl("delete", "pod", "looping", "--wait=false");
  });

  it("graceful deletion: a pod that handles SIGTERM goes at once or after its stop time, one that ignores it is killed after its grace period", async () => {
    await applyPod(pod("quick"));
    await applyPod(pod("slow", {}, { "sim.kubesdk.dev/stop-ms": "1500" }));
    await applyPod(
      pod("stubborn", { terminationGracePeriodSeconds: 1 }, { "sim.kubesdk.dev/ignore-sigterm": "true" }),
    );
    await c.until(() => ["quick", "slow", "stubborn"].every((n) => isTrue(stored(n), "Ready")));
    const finals = new Map<string, Json>();
    const unsubscribe = c.server.store.subscribe((e) => {
      if (e.bucket === "/pods" && e.type === "DELETED") finals.set(String(e.object.metadata.name), e.object);
    });
    await c.kubectl("delete", "pod", "quick", "slow", "stubborn", "--wait=false");
    const terminating = stored("stubborn");
    expect(terminating.metadata.deletionGracePeriodSeconds).toBe(1);
    // Its containers are still stopping: the pod is there, marked for deletion.
    expect(stored("slow").metadata.deletionTimestamp).toBeDefined();
    await c.until(() => finals.has("quick") && finals.has("slow") && finals.has("stubborn"));
    expect(finals.get("slow").status.containerStatuses[0].state.terminated.exitCode).toBe(0);
    unsubscribe();
    expect(finals.get("quick").status.containerStatuses[0].state.terminated.exitCode).toBe(0);
    expect(finals.get("stubborn").status.phase).toBe("Failed");
    expect(finals.get("stubborn").status.containerStatuses[0].state.terminated.exitCode).toBe(137);
  });

  it("node loss: the node turns Unknown and tainted, its pods are evicted once their toleration runs out, and once it is back the Deployment's replacement runs", async () => {
    // DefaultTolerationSeconds would give the pod 300 s; it tolerates the lost node for 0 s instead.
    await c.apply(`apiVersion: apps/v1
kind: Deployment
metadata: { name: keeper, namespace: ${ns} }
spec:
  replicas: 1
  selector: { matchLabels: { app: keeper } }
  template:
    metadata: { labels: { app: keeper } }
    spec:
      nodeSelector: { size: small }
      tolerations:
        - { key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 0 }
      containers: [{ name: main, image: busybox }]
`);
    const first = await c.until(() =>
      c.list("/pods", ns).find((p: Json) => p.metadata.labels?.app === "keeper" && isTrue(p, "Ready")),
    );
    expect(first.spec.nodeName).toBe("small");
    c.server.nodes?.stop("small");
    const node = await c.until(() => {
      const n = c.get("/nodes", "small");
      return n.spec.taints?.some((t: Json) => t.key === "node.kubernetes.io/unreachable") && n;
    });
    expect(conditionOf(node, "Ready").status).toBe("Unknown");
    const evicted = await c.until(
      () => stored(first.metadata.name)?.metadata.deletionTimestamp && stored(first.metadata.name),
    );
    expect(conditionOf(evicted, "DisruptionTarget")).toMatchObject({
      status: "True",
      reason: "DeletionByTaintManager",
    });
    expect(conditionOf(evicted, "Ready").status).toBe("False");
    c.server.nodes?.start("small");
    await c.until(() => !stored(first.metadata.name));
    const replacement = await c.until(() =>
      c.list("/pods", ns).find((p: Json) => p.metadata.labels?.app === "keeper" && isTrue(p, "Ready")),
    );
    expect(replacement.metadata.name).not.toBe(first.metadata.name);
    expect(c.get("/nodes", "small").spec.taints ?? []).toEqual([]);
  });
});

describe("simulated cluster (reference server only): refused pods", () => {
  it("a ReplicaSet whose pods a quota refuses reports ReplicaFailure, and recovers when the quota grows", async () => {
    await c.kubectl("create", "namespace", "tight");
    await c.kubectl("-n", "tight", "create", "quota", "two-pods", "--hard=pods=2");
    await c.until(() => c.get("/resourcequotas", "tight/two-pods")?.status?.hard);
    await c.apply(`apiVersion: apps/v1
kind: Deployment
metadata: { name: many, namespace: tight }
spec:
  replicas: 3
  selector: { matchLabels: { app: many } }
  template:
    metadata: { labels: { app: many } }
    spec: { containers: [{ name: main, image: busybox }] }
`);
    const failing = await c.until(() => {
      const d = c.get("apps/deployments", "tight/many");
      return conditionOf(d, "ReplicaFailure")?.status === "True" && d.status.availableReplicas === 2 && d;
    });
    expect(conditionOf(failing, "ReplicaFailure").reason).toBe("FailedCreate");
    expect(conditionOf(failing, "ReplicaFailure").message).toContain("exceeded quota: two-pods");
    // maxUnavailable 25% of 3 rounds down to 0: two of three is below the minimum.
    expect(conditionOf(failing, "Available")).toMatchObject({
      status: "False",
      reason: "MinimumReplicasUnavailable",
    });
    await c.kubectl("-n", "tight", "patch", "quota", "two-pods", "-p", '{"spec":{"hard":{"pods":"5"}}}');
    expect(
      (await c.kubectl("-n", "tight", "rollout", "status", "deployment/many", "--timeout=60s")).code,
    ).toBe(0);
    await c.until(() => !conditionOf(c.get("apps/deployments", "tight/many"), "ReplicaFailure"));
  });
});
