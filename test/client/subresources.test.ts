import { isConflict } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { namespacedSuite, testDeployment } from "./support.js";

const suite = namespacedSuite("client-sub");

const deployments = () => suite.kube.resource("apps/v1", "Deployment");
describe("status subresource", () => {
  it("writes only the status through /status, and the main resource ignores status", async () => {
    await deployments().create(testDeployment("st"));
    const current = await deployments().status.get("st");
    const updated = await deployments().status.replace({
      ...current,
      spec: { ...current.spec, replicas: 9 },
      status: { replicas: 1, observedGeneration: 1 },
    });
    expect(updated.status?.replicas).toBe(1);
    expect(updated.spec.replicas).toBe(1);

    const patched = await deployments().status.patch("st", {
      type: "merge",
      patch: { status: { readyReplicas: 1 } },
    });
    expect(patched.status).toMatchObject({ replicas: 1, readyReplicas: 1 });

    const main = await deployments().patch("st", { type: "merge", patch: { status: { replicas: 7 } } });
    expect(main.status?.replicas).toBe(1);
  });

  it("guards status replaces with the resourceVersion", async () => {
    await deployments().create(testDeployment("st-rv"));
    const stale = await deployments().status.get("st-rv");
    await deployments().status.patch("st-rv", { type: "merge", patch: { status: { replicas: 2 } } });
    await expect(deployments().status.replace({ ...stale, status: { replicas: 3 } })).rejects.toSatisfy(
      isConflict,
    );
  });
});

describe("scale subresource", () => {
  it("reads the replicas as an autoscaling/v1 Scale", async () => {
    await deployments().create(testDeployment("sc", 2));
    const scale = await deployments().scale.get("sc");
    expect(scale).toMatchObject({ apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name: "sc" } });
    expect(scale.spec?.replicas).toBe(2);
  });

  it("replaces and patches the replicas, which the deployment then shows", async () => {
    await deployments().create(testDeployment("sc2", 1));
    const scale = await deployments().scale.get("sc2");
    const replaced = await deployments().scale.replace({ ...scale, spec: { replicas: 3 } });
    expect(replaced.spec?.replicas).toBe(3);
    expect((await deployments().get("sc2")).spec.replicas).toBe(3);

    const merged = await deployments().scale.patch("sc2", {
      type: "merge",
      patch: { spec: { replicas: 4 } },
    });
    expect(merged.spec?.replicas).toBe(4);
    const json = await deployments().scale.patch("sc2", {
      type: "json",
      operations: [{ op: "replace", path: "/spec/replicas", value: 5 }],
    });
    expect(json.spec?.replicas).toBe(5);
    expect((await deployments().get("sc2")).spec.replicas).toBe(5);
  });

  it("is refused client-side for resources without a scale subresource", async () => {
    await expect(suite.kube.resource("v1", "ConfigMap").scale.get("x")).rejects.toMatchObject({
      name: "ClientError",
      code: "UNSUPPORTED_OPERATION",
    });
  });
});
