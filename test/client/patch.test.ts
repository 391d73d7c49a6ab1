import type { ApplyConfiguration } from "@kubesdk/client";
import type { appsV1 } from "@kubesdk/models";
import { isApplyConflict, isInvalid } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { namespacedSuite, testDeployment } from "./support.js";

const suite = namespacedSuite("client-patch");

const deployments = () => suite.kube.resource("apps/v1", "Deployment");
describe("patch types", () => {
  it("applies an RFC 6902 JSON patch", async () => {
    await deployments().create(testDeployment("json", 1, { tier: "web" }));
    const patched = await deployments().patch("json", {
      type: "json",
      operations: [
        { op: "test", path: "/spec/replicas", value: 1 },
        { op: "replace", path: "/spec/replicas", value: 4 },
        { op: "remove", path: "/metadata/labels/tier" },
      ],
    });
    expect(patched.spec.replicas).toBe(4);
    expect(patched.metadata?.labels).toEqual({ app: "json" });
  });

  it("rejects a JSON patch whose test operation fails", async () => {
    await deployments().create(testDeployment("json-test", 1, { tier: "web" }));
    const failed = await deployments()
      .patch("json-test", { type: "json", operations: [{ op: "test", path: "/spec/replicas", value: 9 }] })
      .catch((e: unknown) => e);
    // Upstream answers a failed test with 422 Invalid.
    expect(isInvalid(failed)).toBe(true);
  });

  it("applies an RFC 7386 merge patch: null deletes, lists are replaced", async () => {
    await deployments().create(testDeployment("merge", 1, { tier: "web" }));
    const patched = await deployments().patch("merge", {
      type: "merge",
      patch: {
        metadata: { labels: { tier: null, added: "yes" } },
        spec: { template: { spec: { containers: [{ name: "other", image: "busybox:1.36" }] } } },
      },
    });
    expect(patched.metadata?.labels).toEqual({ app: "merge", added: "yes" });
    expect(patched.spec.template.spec?.containers.map((c) => c.name)).toEqual(["other"]);
  });

  it("applies a strategic merge patch: containers merge by name", async () => {
    await deployments().create(testDeployment("strategic", 1, { tier: "web" }));
    const patched = await deployments().patch("strategic", {
      type: "strategic",
      patch: { spec: { template: { spec: { containers: [{ name: "sidecar", image: "busybox:1.36" }] } } } },
    });
    expect(patched.spec.template.spec?.containers.map((c) => c.name).sort()).toEqual(["main", "sidecar"]);
    const removed = await deployments().patch("strategic", {
      type: "strategic",
      patch: { spec: { template: { spec: { containers: [{ name: "sidecar", $patch: "delete" }] } } } },
    });
    expect(removed.spec.template.spec?.containers.map((c) => c.name)).toEqual(["main"]);
  });
});

describe("server-side apply through patch()", () => {
  const configuration = (replicas: number): ApplyConfiguration<appsV1.Deployment> => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "applied" },
    spec: {
      replicas,
      selector: { matchLabels: { app: "applied" } },
      template: {
        metadata: { labels: { app: "applied" } },
        spec: { containers: [{ name: "main", image: "nginx:1.27" }] },
      },
    },
  });

  it("creates on first apply, records the manager, and answers a conflict with the raw ApiError", async () => {
    const created = await deployments().patch(
      "applied",
      { type: "apply", object: configuration(2) },
      { fieldManager: "team-a" },
    );
    expect(created.spec.replicas).toBe(2);
    expect(created.metadata?.managedFields?.find((m) => m.manager === "team-a")?.operation).toBe("Apply");

    // patch() sends one request and applies no conflict policy (apply() does: see apply.test.ts).
    const conflict = await deployments()
      .patch("applied", { type: "apply", object: configuration(5) }, { fieldManager: "team-b" })
      .catch((e: unknown) => e);
    expect(isApplyConflict(conflict)).toBe(true);
    const patched = await deployments().patch(
      "applied",
      {
        type: "apply",
        object: { ...configuration(6), metadata: { name: "applied", labels: { via: "patch" } } },
      },
      { fieldManager: "team-b", force: true },
    );
    expect(patched.metadata?.labels).toMatchObject({ via: "patch" });
    expect(patched.spec.replicas).toBe(6);
  });
});
