import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const MERGE = "application/merge-patch+json";
const change = {
  metadata: { labels: { a: "2", b: "new" }, annotations: { "deployment.kubernetes.io/revision": "1" } },
  status: { observedGeneration: 1 },
};

/** Creates the object, writes `change` through /status, and answers the stored labels and annotations. */
async function throughStatus(path: string, body: Record<string, unknown>) {
  const name = uniqueName("st");
  const created = await t.call("POST", path, { body: { ...body, metadata: { name, labels: { a: "1" } } } });
  expect(created.status, created.text).toBe(201);
  const res = await t.call("PATCH", `${path}/${name}/status`, {
    rawBody: JSON.stringify(change),
    contentType: MERGE,
  });
  expect(res.status, res.text).toBe(200);
  const stored = await t.call("GET", `${path}/${name}`);
  await t.call("DELETE", `${path}/${name}`);
  return { labels: stored.json.metadata.labels, annotations: stored.json.metadata.annotations };
}

describe("metadata written through /status", () => {
  it("a Deployment keeps the annotations of a status write (the controller's revision) but not its labels", async () => {
    const got = await throughStatus("/apis/apps/v1/namespaces/default/deployments", {
      spec: {
        selector: { matchLabels: { app: "x" } },
        template: { metadata: { labels: { app: "x" } }, spec: { containers: [{ name: "c", image: "i" }] } },
      },
    });
    expect(got).toEqual({ labels: { a: "1" }, annotations: { "deployment.kubernetes.io/revision": "1" } });
  });

  it("a PodDisruptionBudget keeps labels and annotations of a status write", async () => {
    const got = await throughStatus("/apis/policy/v1/namespaces/default/poddisruptionbudgets", {
      spec: { minAvailable: 1 },
    });
    expect(got).toEqual({
      labels: { a: "2", b: "new" },
      annotations: { "deployment.kubernetes.io/revision": "1" },
    });
  });

  it("a ServiceCIDR keeps neither (its status strategy resets metadata)", async () => {
    const got = await throughStatus("/apis/networking.k8s.io/v1/servicecidrs", {
      spec: { cidrs: ["10.211.0.0/16"] },
    });
    expect(got).toEqual({ labels: { a: "1" }, annotations: undefined });
  });

  it("a PUT to deployments/<name>/status that adds the revision annotation keeps it (kube-controller-manager's write)", async () => {
    const path = "/apis/apps/v1/namespaces/default/deployments";
    const name = uniqueName("rev");
    const created = await t.call("POST", path, {
      body: {
        metadata: { name },
        spec: {
          selector: { matchLabels: { app: "x" } },
          template: { metadata: { labels: { app: "x" } }, spec: { containers: [{ name: "c", image: "i" }] } },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const body = structuredClone(created.json);
    body.metadata.annotations = { "deployment.kubernetes.io/revision": "1" };
    body.status = { observedGeneration: 1 };
    const put = await t.call("PUT", `${path}/${name}/status`, { body });
    expect(put.status, put.text).toBe(200);
    expect(put.json.metadata.annotations).toEqual({ "deployment.kubernetes.io/revision": "1" });
    expect(put.json.metadata.resourceVersion).not.toBe(created.json.metadata.resourceVersion);
    const stored = await t.call("GET", `${path}/${name}`);
    await t.call("DELETE", `${path}/${name}`);
    expect(stored.json.metadata.annotations).toEqual({ "deployment.kubernetes.io/revision": "1" });
    expect(stored.json.status.observedGeneration).toBe(1);
  });
});
