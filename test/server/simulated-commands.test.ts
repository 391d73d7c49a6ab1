/**
 * Issue 36 (upstream's Job, Deployment and DaemonSet [Conformance] tests on the simulated
 * kubelets): pods do what their containers plainly would (a shell's `exit N`, `sleep N`, the pause
 * image running until killed), and an image the simulated registry lacks (a stage's `images`)
 * keeps its pods Pending in ImagePullBackOff, so a rollout to it stalls with the old pods running.
 * Reason for reference-only: it tests the reference server's own simulated cluster, started in
 * process here on both targets (kube-apiserver alone runs no pods); the same kubelets run against
 * kube-apiserver over HTTP in `pnpm test:conformance --real`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Json, type SimulatedClusterSuite, startSimulatedCluster } from "./simulated-cluster-support.js";

let c: SimulatedClusterSuite;
const ns = "default";

beforeAll(async () => {
  c = await startSimulatedCluster({
    cluster: {
      nodes: [{ name: "node-1" }, { name: "node-2" }],
      stages: [{ name: "missing", images: ["web:404"], behaviour: { imagePullFails: true } }],
    },
  });
});
afterAll(async () => {
  await c.stop();
});

const pods = () => c.list("/pods", ns);
const ownedBy = (name: string) => pods().filter((p: Json) => p.metadata.ownerReferences?.[0]?.name === name);
const isReady = (p: Json) =>
  (p.status?.conditions ?? []).some((x: Json) => x.type === "Ready" && x.status === "True");

describe("simulated cluster (reference server only): container commands", () => {
  it("a pod whose shell exits 3 ends Failed with exit code 3", async () => {
    await c.apply(`apiVersion: v1
kind: Pod
metadata: { name: exits, namespace: ${ns} }
spec: { restartPolicy: Never, containers: [{ name: main, image: busybox, command: [sh, -c, "exit 3"] }] }
`);
    const done = await c.until(() => {
      const p = c.get("/pods", `${ns}/exits`);
      return p?.status?.phase === "Failed" && p;
    });
    expect(done.status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 3, reason: "Error" });
  });

  it("a Job of pause-image pods keeps them running; one whose pods exit 0 completes", async () => {
    const job = (name: string, container: string) => `apiVersion: batch/v1
kind: Job
metadata: { name: ${name}, namespace: ${ns} }
spec:
  parallelism: 2
  completions: 4
  template:
    spec: { restartPolicy: Never, containers: [${container}] }
`;
    await c.apply(job("forever", "{ name: c, image: registry.k8s.io/pause:3.10 }"));
    await c.apply(job("quick", '{ name: c, image: busybox, command: [/bin/sh, -c, "exit 0"] }'));
    const running = await c.until(() => {
      const owned = ownedBy("forever");
      return (
        owned.length === 2 && owned.every((p: Json) => p.status?.phase === "Running" && isReady(p)) && owned
      );
    });
    expect(running).toHaveLength(2);
    expect((await c.kubectl("wait", "--for=condition=Complete", "job/quick", "--timeout=60s")).code).toBe(0);
    expect(c.get("batch/jobs", `${ns}/forever`).status).toMatchObject({ active: 2 });
    expect(c.get("batch/jobs", `${ns}/forever`).status.succeeded ?? 0).toBe(0);
  });
});

describe("simulated cluster (reference server only): images that cannot be pulled", () => {
  it("a rollout to a missing image stalls: new pods Pending in ImagePullBackOff, old ones kept", async () => {
    const deployment = (image: string) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: roll, namespace: ${ns} }
spec:
  replicas: 3
  strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }
  selector: { matchLabels: { app: roll } }
  template:
    metadata: { labels: { app: roll } }
    spec: { containers: [{ name: web, image: ${image} }] }
`;
    await c.apply(deployment("web:1"));
    expect((await c.kubectl("rollout", "status", "deployment/roll", "--timeout=60s")).code).toBe(0);
    await c.apply(deployment("web:404"));
    const stuck = await c.until(() => {
      const fresh = pods().find(
        (p: Json) => p.spec.containers[0].image === "web:404" && p.status?.containerStatuses !== undefined,
      );
      return fresh;
    });
    expect(stuck.status.phase).toBe("Pending");
    expect(stuck.status.containerStatuses[0]).toMatchObject({
      ready: false,
      started: false,
      imageID: "",
      state: { waiting: { reason: "ImagePullBackOff", message: 'Back-off pulling image "web:404"' } },
    });
    expect(stuck.status.containerStatuses[0].containerID).toBeUndefined();
    expect(isReady(stuck)).toBe(false);
    const old = pods().filter((p: Json) => p.spec.containers[0].image === "web:1");
    expect(old).toHaveLength(3);
    expect(old.every(isReady)).toBe(true);
  });
});
