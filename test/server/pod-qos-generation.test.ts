/**
 * What kube-apiserver sets on a pod itself: `status.qosClass` at create (from the containers'
 * requests and limits of cpu and memory), and `metadata.generation`, which an update that resends
 * the same spec leaves alone however the client orders its fields (a typed client writes them in
 * its own order, not the stored one).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPodNamespace } from "../support/pod-namespace.js";
import { startTarget, type TestTarget } from "../support/target.js";

let t: TestTarget;
let ns: string;
const pods = () => `/api/v1/namespaces/${ns}/pods`;

beforeAll(async () => {
  t = await startTarget();
  ns = await createPodNamespace(t, "podqos");
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

const pod = (name: string, resources: Record<string, unknown>[]) => ({
  metadata: { name },
  spec: {
    initContainers: [{ name: "init", image: "busybox", resources: resources[1] ?? resources[0] }],
    containers: [{ name: "app", image: "busybox", resources: resources[0] }],
  },
});
const both = (cpu: string, memory: string) => ({ cpu, memory });

describe("pod QoS class", () => {
  it("is Guaranteed, Burstable or BestEffort as the containers' cpu and memory requests and limits say", async () => {
    const cases: [string, Record<string, unknown>[], string][] = [
      ["guaranteed", [{ limits: both("100m", "100Mi"), requests: both("0.1", "104857600") }], "Guaranteed"],
      ["limits-only", [{ limits: both("1", "1Gi") }], "Guaranteed"],
      ["requests-only", [{ requests: both("100m", "100Mi") }], "Burstable"],
      ["cpu-only", [{ limits: { cpu: "1" } }], "Burstable"],
      ["mixed", [{ limits: both("1", "1Gi") }, {}], "Burstable"],
      ["none", [{}], "BestEffort"],
      ["storage-only", [{ requests: { "ephemeral-storage": "1Gi" } }], "BestEffort"],
    ];
    for (const [name, resources, qos] of cases) {
      const res = await t.call("POST", pods(), { body: pod(`qos-${name}`, resources) });
      expect(res.status, name).toBe(201);
      expect(res.json.status.qosClass, name).toBe(qos);
    }
  });
});

/** The same JSON with every object's keys in reverse order. */
function reversed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversed);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, reversed(x)]),
  );
}

describe("pod generation", () => {
  it("stays 1 when an update resends the stored spec with its fields in another order", async () => {
    const created = await t.call("POST", pods(), { body: pod("gen", [{}]) });
    expect(created.json.metadata.generation).toBe(1);
    const stored = (await t.call("GET", `${pods()}/gen`)).json;
    const updated = await t.call("PUT", `${pods()}/gen`, { body: reversed(stored) });
    expect(updated.status).toBe(200);
    expect(updated.json.metadata.generation).toBe(1);
    const changed = { ...stored, spec: { ...stored.spec, activeDeadlineSeconds: 600 } };
    changed.metadata = { ...stored.metadata, resourceVersion: updated.json.metadata.resourceVersion };
    const bumped = await t.call("PUT", `${pods()}/gen`, { body: changed });
    expect(bumped.status).toBe(200);
    expect(bumped.json.metadata.generation).toBe(2);
  });
});
