/**
 * metadata.generation of kinds whose strategy sets it in its own way: a PriorityClass gets 1 at
 * create and keeps it through updates, and one more when a finalizer holds its deletion; an
 * EndpointSlice gets 1 at create and one more for an update of anything but metadata, or of its
 * labels, but not of its annotations; a Deployment one more for an update of its spec or of its
 * annotations (its controller copies them to the ReplicaSets), not of its labels. Both targets:
 * the real server's strategies are the reference.
 */
import { describe, expect, it } from "vitest";
import { useNamespaceSuite } from "../support/namespace-suite.js";
import { type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;

useNamespaceSuite("generation", (target, name) => {
  t = target;
  ns = name;
});

const merge = { contentType: "application/merge-patch+json" };

async function mergePatch(path: string, body: unknown): Promise<number> {
  const res = await t.call("PATCH", path, { ...merge, body });
  expect(res.status, res.text).toBe(200);
  return res.json.metadata.generation;
}

describe("generation of PriorityClasses, EndpointSlices and Deployments", () => {
  it("a PriorityClass starts at 1, keeps it through an update and gets 2 when its deletion starts", async () => {
    const name = uniqueName("gen-pc");
    const path = `/apis/scheduling.k8s.io/v1/priorityclasses/${name}`;
    const body = { metadata: { name, finalizers: ["example.com/hold"] }, value: 1000 };
    const created = await t.call("POST", "/apis/scheduling.k8s.io/v1/priorityclasses", { body });
    expect(created.status, created.text).toBe(201);
    expect(created.json.metadata.generation).toBe(1);
    expect(await mergePatch(path, { description: "changed" })).toBe(1);
    const deleted = await t.call("DELETE", path);
    expect(deleted.status, deleted.text).toBe(200);
    const held = await t.call("GET", path);
    expect(held.json.metadata.deletionTimestamp).toBeDefined();
    expect(held.json.metadata.generation).toBe(2);
    await mergePatch(path, { metadata: { finalizers: null } });
  });

  it("an EndpointSlice counts updates of its endpoints and of its labels, not of its annotations", async () => {
    const path = `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`;
    const body = {
      metadata: { name: "gen-slice", labels: { a: "1" } },
      addressType: "IPv4",
      endpoints: [{ addresses: ["10.0.0.1"] }],
    };
    const created = await t.call("POST", path, { body });
    expect(created.status, created.text).toBe(201);
    expect(created.json.metadata.generation).toBe(1);
    const slice = `${path}/gen-slice`;
    expect(await mergePatch(slice, { metadata: { annotations: { x: "y" } } })).toBe(1);
    expect(await mergePatch(slice, { metadata: { labels: { a: "2" } } })).toBe(2);
    expect(await mergePatch(slice, { endpoints: [{ addresses: ["10.0.0.2"] }] })).toBe(3);
    const both = { metadata: { labels: { a: "3" } }, endpoints: [{ addresses: ["10.0.0.3"] }] };
    expect(await mergePatch(slice, both)).toBe(4);
  });

  it("a Deployment counts updates of its spec and of its annotations, not of its labels", async () => {
    const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const labels = { app: "gen" };
    const body = {
      metadata: { name: "gen-deploy" },
      spec: {
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: "c", image: "busybox" }] } },
      },
    };
    const created = await t.call("POST", path, { body });
    expect(created.status, created.text).toBe(201);
    expect(created.json.metadata.generation).toBe(1);
    const deploy = `${path}/gen-deploy`;
    expect(await mergePatch(deploy, { metadata: { labels: { l: "1" } } })).toBe(1);
    expect(await mergePatch(deploy, { metadata: { annotations: { x: "y" } } })).toBe(2);
    expect(await mergePatch(deploy, { spec: { replicas: 3 } })).toBe(3);
    const both = { metadata: { annotations: { x: "z" } }, spec: { replicas: 2 } };
    expect(await mergePatch(deploy, both)).toBe(4);
  });
});
