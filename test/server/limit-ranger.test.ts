/**
 * LimitRanger admission: a namespace's LimitRange fills in a new pod's missing requests and limits
 * (and says so in an annotation), and refuses pods and claims outside its bounds in upstream's words,
 * storing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("limits");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name: "default" } },
  });
  const range = await t.call("POST", `/api/v1/namespaces/${ns}/limitranges`, {
    body: {
      metadata: { name: "bounds" },
      spec: {
        limits: [
          {
            type: "Container",
            default: { cpu: "500m", memory: "256Mi" },
            defaultRequest: { cpu: "100m" },
            max: { cpu: "1" },
            maxLimitRequestRatio: { memory: "4" },
          },
          { type: "PersistentVolumeClaim", min: { storage: "1Gi" }, max: { storage: "10Gi" } },
        ],
      },
    },
  });
  expect(range.status).toBe(201);
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

const pod = (name: string, resources: Record<string, unknown>) => ({
  metadata: { name },
  spec: { containers: [{ name: "app", image: "busybox", resources }] },
});

describe("LimitRanger", () => {
  it("fills in missing requests and limits and notes what it set", async () => {
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/pods`, {
      body: pod("defaults", { requests: { memory: "128Mi" } }),
    });
    expect(res.status).toBe(201);
    expect(res.json.spec.containers[0].resources).toEqual({
      requests: { cpu: "100m", memory: "128Mi" },
      limits: { cpu: "500m", memory: "256Mi" },
    });
    expect(res.json.metadata.annotations["kubernetes.io/limit-ranger"]).toBe(
      "LimitRanger plugin set: cpu request for container app; cpu, memory limit for container app",
    );
  });

  it("refuses a container over its maximum, storing nothing", async () => {
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/pods`, {
      body: pod("too-big", { limits: { cpu: "2" }, requests: { cpu: "2" } }),
    });
    expect(res.status).toBe(403);
    expect(res.json.reason).toBe("Forbidden");
    expect(res.json.message).toBe(
      'pods "too-big" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
    );
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/pods/too-big`)).status).toBe(404);
  });

  it("refuses a limit to request ratio over its bound", async () => {
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/pods`, {
      body: pod("ratio", { requests: { memory: "32Mi" }, limits: { memory: "256Mi" } }),
    });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(
      'pods "ratio" is forbidden: memory max limit to request ratio per Container is 4, but provided ratio is 8.000000',
    );
  });

  it("holds claims to the storage bounds", async () => {
    const claim = (name: string, storage: string) => ({
      metadata: { name },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage } } },
    });
    const small = await t.call("POST", `/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
      body: claim("small", "512Mi"),
    });
    expect(small.status).toBe(403);
    expect(small.json.message).toBe(
      'persistentvolumeclaims "small" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 512Mi',
    );
    const big = await t.call("POST", `/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
      body: claim("big", "20Gi"),
    });
    expect(big.status).toBe(403);
    expect(big.json.message).toBe(
      'persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
    );
    const fine = await t.call("POST", `/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
      body: claim("fine", "5Gi"),
    });
    expect(fine.status).toBe(201);
  });
});
