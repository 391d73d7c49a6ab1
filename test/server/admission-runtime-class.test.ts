/**
 * The RuntimeClass admission plugin (packages/server/src/admission/plugins/runtime-class.ts): a pod
 * naming a missing RuntimeClass is refused, a class's overhead and scheduling are copied into the
 * pod, and an overhead that disagrees with the class is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPodNamespace } from "../support/pod-namespace.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;
const classes: string[] = [];
const pods = () => `/api/v1/namespaces/${ns}/pods`;
const pod = (name: string, spec: Record<string, unknown>) => ({
  metadata: { name },
  spec: { containers: [{ name: "app", image: "busybox" }], ...spec },
});

async function runtimeClass(body: Record<string, unknown>): Promise<string> {
  const name = uniqueName("rc");
  const res = await t.call("POST", "/apis/node.k8s.io/v1/runtimeclasses", {
    body: { metadata: { name }, handler: "runc", ...body },
  });
  expect(res.status, res.text).toBe(201);
  classes.push(name);
  return name;
}

beforeAll(async () => {
  t = await startTarget();
  ns = await createPodNamespace(t, "rcadm");
});
afterAll(async () => {
  for (const name of classes) await t.call("DELETE", `/apis/node.k8s.io/v1/runtimeclasses/${name}`);
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("RuntimeClass admission", () => {
  it("refuses a pod naming a RuntimeClass that does not exist, dry run included", async () => {
    const missing = uniqueName("nope");
    for (const query of ["", "?dryRun=All"]) {
      const res = await t.call("POST", `${pods()}${query}`, {
        body: pod("p1", { runtimeClassName: missing }),
      });
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({
        kind: "Status",
        reason: "Forbidden",
        message: `pods "p1" is forbidden: pod rejected: RuntimeClass "${missing}" not found`,
      });
    }
  });

  it("copies the class's overhead and scheduling into the pod", async () => {
    const name = await runtimeClass({
      overhead: { podFixed: { cpu: "250m", memory: "120Mi" } },
      scheduling: {
        nodeSelector: { "example.com/sandbox": "yes" },
        tolerations: [{ key: "sandbox", operator: "Exists", effect: "NoSchedule" }],
      },
    });
    const res = await t.call("POST", pods(), {
      body: pod("p2", { runtimeClassName: name, nodeSelector: { zone: "a" } }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec.overhead).toEqual({ cpu: "250m", memory: "120Mi" });
    expect(res.json.spec.nodeSelector).toEqual({ zone: "a", "example.com/sandbox": "yes" });
    expect(res.json.spec.tolerations).toContainEqual({
      key: "sandbox",
      operator: "Exists",
      effect: "NoSchedule",
    });
  });

  it("refuses an overhead that is not the class's, or one without a class that has one", async () => {
    const name = await runtimeClass({ overhead: { podFixed: { cpu: "250m" } } });
    const other = await t.call("POST", pods(), {
      body: pod("p3", { runtimeClassName: name, overhead: { cpu: "1" } }),
    });
    expect(other.status).toBe(403);
    expect(other.json.message).toBe(
      `pods "p3" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`,
    );
    const plain = await runtimeClass({});
    const orphan = await t.call("POST", pods(), {
      body: pod("p4", { runtimeClassName: plain, overhead: { cpu: "1" } }),
    });
    expect(orphan.status).toBe(403);
    expect(orphan.json.message).toBe(
      `pods "p4" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead`,
    );
  });
});
