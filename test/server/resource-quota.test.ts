/**
 * ResourceQuota admission, as kube-apiserver runs it without kube-controller-manager (the reference
 * server with its controllers off): a quota is enforced once its status says what is hard and used,
 * an admitted write is charged to the quota's status before it is stored, an over-quota write is
 * refused in upstream's words and not stored, a dry run is checked but not charged. Then, on the
 * reference server alone, its stand-in for the quota controller measuring usage and giving it back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, targetKind, uniqueName } from "../support/target.js";
import { openWatch, type WatchEventJson } from "../support/watch-client.js";

let t: TestTarget;

beforeAll(async () => {
  t = await startTarget({ controllers: false });
});
afterAll(async () => {
  await t.close();
});

const pod = (name: string, resources: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: { containers: [{ name: "c", image: "busybox", resources }], ...extra },
});

/** A namespace (with its default ServiceAccount, which kube-apiserver wants for pods) and a quota. */
async function namespaceWithQuota(spec: Record<string, unknown>): Promise<string> {
  const ns = uniqueName("quota");
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name: "default" } },
  });
  const created = await t.call("POST", `/api/v1/namespaces/${ns}/resourcequotas`, {
    body: { metadata: { name: "q" }, spec },
  });
  expect(created.status).toBe(201);
  return ns;
}

/** Writes the quota's status as the quota controller would: hard from spec, nothing used yet. */
async function publishStatus(ns: string): Promise<void> {
  const path = `/api/v1/namespaces/${ns}/resourcequotas/q`;
  const quota = (await t.call("GET", path)).json;
  const hard = quota.spec.hard as Record<string, string>;
  const used = Object.fromEntries(Object.keys(hard).map((k) => [k, "0"]));
  const res = await t.call("PUT", `${path}/status`, { body: { ...quota, status: { hard, used } } });
  expect(res.status).toBe(200);
}

const usedOf = async (ns: string) =>
  (await t.call("GET", `/api/v1/namespaces/${ns}/resourcequotas/q`)).json.status.used as Record<
    string,
    string
  >;

/**
 * kube-apiserver's quota admission reads quotas through an informer, so the status just written
 * reaches it a moment later: a dry-run create (nothing stored, nothing charged) is retried, bounded,
 * until it is refused. The reference server refuses the first.
 */
async function untilQuotaSeen(ns: string): Promise<void> {
  const attempt = () =>
    t.call("POST", `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, { body: { metadata: { name: "d" } } });
  let res = await attempt();
  for (let i = 0; i < 100 && res.status !== 403; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    res = await attempt();
  }
  expect(res.status).toBe(403);
}

describe("ResourceQuota admission", () => {
  it("is not consulted before it has a status, and refuses what it limits while usage is unknown", async () => {
    const ns = await namespaceWithQuota({ hard: { "count/configmaps": "5" } });
    const before = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, {
      body: { metadata: { name: "a" } },
    });
    expect(before.status).toBe(201);
    const path = `/api/v1/namespaces/${ns}/resourcequotas/q`;
    const quota = (await t.call("GET", path)).json;
    const hardOnly = { ...quota, status: { hard: quota.spec.hard } };
    expect((await t.call("PUT", `${path}/status`, { body: hardOnly })).status).toBe(200);
    await untilQuotaSeen(ns);
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, {
      body: { metadata: { name: "c" } },
    });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(
      'configmaps "c" is forbidden: status unknown for quota: q, resources: count/configmaps',
    );
    const other = await t.call("POST", `/api/v1/namespaces/${ns}/secrets`, {
      body: { metadata: { name: "s" } },
    });
    expect(other.status).toBe(201);
  });

  it("charges admitted objects and refuses the one past the limit, storing nothing", async () => {
    const ns = await namespaceWithQuota({ hard: { pods: "1", "count/configmaps": "2" } });
    await publishStatus(ns);
    expect((await t.call("POST", `/api/v1/namespaces/${ns}/pods`, { body: pod("p1") })).status).toBe(201);
    expect(await usedOf(ns)).toEqual({ pods: "1", "count/configmaps": "0" });
    const over = await t.call("POST", `/api/v1/namespaces/${ns}/pods`, { body: pod("p2") });
    expect(over.status).toBe(403);
    expect(over.json.reason).toBe("Forbidden");
    expect(over.json.message).toBe(
      'pods "p2" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
    );
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/pods/p2`)).status).toBe(404);
    expect(await usedOf(ns)).toEqual({ pods: "1", "count/configmaps": "0" });
  });

  it("checks a dry run without charging it", async () => {
    const ns = await namespaceWithQuota({ hard: { "count/configmaps": "1" } });
    await publishStatus(ns);
    const dry = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, {
      body: { metadata: { name: "a" } },
    });
    expect(dry.status).toBe(201);
    expect(await usedOf(ns)).toEqual({ "count/configmaps": "0" });
    expect(
      (await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name: "a" } } }))
        .status,
    ).toBe(201);
    const over = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, {
      body: { metadata: { name: "b" } },
    });
    expect(over.status).toBe(403);
    expect(over.json.message).toContain("exceeded quota: q, requested: count/configmaps=1");
  });

  it("makes containers declare the compute resources it limits, and sums them", async () => {
    const ns = await namespaceWithQuota({ hard: { "requests.cpu": "1", "limits.memory": "1Gi" } });
    await publishStatus(ns);
    const bare = await t.call("POST", `/api/v1/namespaces/${ns}/pods`, { body: pod("bare") });
    expect(bare.status).toBe(403);
    expect(bare.json.message).toBe(
      'pods "bare" is forbidden: failed quota: q: must specify limits.memory for: c; requests.cpu for: c',
    );
    const sized = { requests: { cpu: "600m" }, limits: { memory: "768Mi" } };
    expect((await t.call("POST", `/api/v1/namespaces/${ns}/pods`, { body: pod("a", sized) })).status).toBe(
      201,
    );
    expect(await usedOf(ns)).toEqual({ "requests.cpu": "600m", "limits.memory": "768Mi" });
    const second = await t.call("POST", `/api/v1/namespaces/${ns}/pods`, { body: pod("b", sized) });
    expect(second.status).toBe(403);
    expect(second.json.message).toBe(
      'pods "b" is forbidden: exceeded quota: q, requested: limits.memory=768Mi,requests.cpu=600m, used: limits.memory=768Mi,requests.cpu=600m, limited: limits.memory=1Gi,requests.cpu=1',
    );
  });

  it("counts only the pods in its scope", async () => {
    const ns = await namespaceWithQuota({ hard: { pods: "1" }, scopes: ["BestEffort"] });
    await publishStatus(ns);
    const sized = { requests: { cpu: "100m" } };
    for (const name of ["burstable-1", "burstable-2"])
      expect((await t.call("POST", `/api/v1/namespaces/${ns}/pods`, { body: pod(name, sized) })).status).toBe(
        201,
      );
    expect((await t.call("POST", `/api/v1/namespaces/${ns}/pods`, { body: pod("best-1") })).status).toBe(201);
    const over = await t.call("POST", `/api/v1/namespaces/${ns}/pods`, { body: pod("best-2") });
    expect(over.status).toBe(403);
    expect(await usedOf(ns)).toEqual({ pods: "1" });
  });

  it("counts LoadBalancer Services and their node ports", async () => {
    const ns = await namespaceWithQuota({ hard: { "services.loadbalancers": "1", services: "5" } });
    await publishStatus(ns);
    const lb = (name: string) => ({
      metadata: { name },
      spec: { type: "LoadBalancer", ports: [{ port: 80 }], selector: { app: "x" } },
    });
    expect((await t.call("POST", `/api/v1/namespaces/${ns}/services`, { body: lb("a") })).status).toBe(201);
    const over = await t.call("POST", `/api/v1/namespaces/${ns}/services`, { body: lb("b") });
    expect(over.status).toBe(403);
    expect(over.json.message).toBe(
      'services "b" is forbidden: exceeded quota: q, requested: services.loadbalancers=1, used: services.loadbalancers=1, limited: services.loadbalancers=1',
    );
    expect(await usedOf(ns)).toEqual({ "services.loadbalancers": "1", services: "1" });
  });
});

describe.runIf(targetKind === "reference")("the reference server's quota controller", () => {
  let r: TestTarget;
  beforeAll(async () => {
    r = await startTarget();
  });
  afterAll(async () => {
    await r.close();
  });

  /** The quota's status once `pred` holds of it; the controller writes it on its own. */
  async function statusUntil(ns: string, pred: (used: Record<string, string> | undefined) => boolean) {
    const watch = await openWatch(
      r,
      `/api/v1/namespaces/${ns}/resourcequotas?watch=1&fieldSelector=metadata.name%3Dq&timeoutSeconds=30`,
    );
    const events = await watch.until((e) => e.type !== "DELETED" && pred(e.object.status?.used));
    await watch.close();
    return (events.at(-1) as WatchEventJson).object.status;
  }

  it("publishes hard and used, and gives usage back when objects go away", async () => {
    const ns = uniqueName("quota-ctl");
    await r.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
    for (const name of ["a", "b"])
      await r.call("POST", `/api/v1/namespaces/${ns}/secrets`, { body: { metadata: { name } } });
    await r.call("POST", `/api/v1/namespaces/${ns}/resourcequotas`, {
      body: { metadata: { name: "q" }, spec: { hard: { secrets: "3", "count/replicasets.apps": "2" } } },
    });
    const first = await statusUntil(ns, (u) => u?.secrets === "2");
    expect(first).toEqual({
      hard: { secrets: "3", "count/replicasets.apps": "2" },
      used: { secrets: "2", "count/replicasets.apps": "0" },
    });
    await r.call("DELETE", `/api/v1/namespaces/${ns}/secrets/a`);
    const after = await statusUntil(ns, (u) => u?.secrets === "1");
    expect(after.used).toEqual({ secrets: "1", "count/replicasets.apps": "0" });
  });
});
