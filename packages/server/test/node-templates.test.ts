/**
 * The simulated kubelet's start-up writes committed from templates (src/cluster/node-templates.ts)
 * are what the write path stores for its requests: the Node (with the not-ready taint admission
 * adds), its Ready status and its Lease, then the node lifecycle's removal of that taint, the same
 * events in the same order, field order included, only the uids differing. Configured nodes and
 * configured admission still take the write path.
 */
import { describe, expect, it } from "vitest";
import { AdmissionChain, defaultAdmissionChain } from "../src/admission/index.js";
import { bootstrap } from "../src/bootstrap.js";
import { WorkLoop } from "../src/cluster/loop.js";
import { NodeAgent, type SimulatedNodeConfig } from "../src/cluster/node-agent.js";
import { NodeLifecycle } from "../src/cluster/node-lifecycle.js";
import { templatedNode } from "../src/cluster/node-templates.js";
import { ClusterAccess } from "../src/cluster/objects.js";
import type { HandlerContext } from "../src/endpoints/handlers/context.js";
import type { StoredObject } from "../src/storage/mvcc.js";
import { fixedClockContext, NOW, recorded } from "./support/recorded-events.js";

const context = fixedClockContext;

/** Registers the nodes through a kubelet's access (templates on or off) and waits for their writes. */
async function register(ctx: HandlerContext, templates: boolean, nodes: SimulatedNodeConfig[]) {
  expect(await bootstrap(ctx, [])).toEqual([]);
  const access = new ClusterAccess(ctx, "kubelet", templates);
  const expected = ctx.store.eventsSince(0).length + 3 * nodes.length;
  const done = new Promise<void>((resolve) => {
    const stop = ctx.store.subscribe(() => {
      if (ctx.store.eventsSince(0).length < expected) return;
      stop();
      resolve();
    });
  });
  const loop: WorkLoop = new WorkLoop((key) => agent.sync(key.slice("node:".length)));
  const agent: NodeAgent = new NodeAgent(access, [], loop, 60_000);
  for (const node of nodes) agent.add(node);
  await done;
  loop.close();
}

/** Resolves once the store holds `count` events. */
function eventsReached(ctx: HandlerContext, count: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (ctx.store.eventsSince(0).length >= count) return resolve();
    const stop = ctx.store.subscribe(() => {
      if (ctx.store.eventsSince(0).length < count) return;
      stop();
      resolve();
    });
  });
}

/** What happens between the kubelet's writes and the node lifecycle's. */
interface Between {
  /** The lifecycle's admission (the kubelet's is the server's own chain). */
  readonly admission?: AdmissionChain;
  /** A write of someone else to the store first. */
  readonly write?: (ctx: HandlerContext) => void;
}

/**
 * Registers node-1 from templates, then lets the node lifecycle (its access's templates on or off)
 * untaint the Ready node `laterMs` after the kubelet's writes, and returns the context.
 */
async function untaint(templates: boolean, laterMs: number, between: Between = {}) {
  let now = NOW;
  const ctx = { ...context(), now: () => now };
  await register(ctx, true, [{ name: "node-1" }]);
  now += laterMs;
  between.write?.(ctx);
  const untainted = eventsReached(ctx, ctx.store.eventsSince(0).length + 1);
  const kcm = { ...ctx, ...(between.admission ? { admission: between.admission } : {}) };
  const lifecycle = new NodeLifecycle(new ClusterAccess(kcm, "kube-controller-manager", templates), 40_000);
  await untainted;
  lifecycle.close();
  return ctx;
}

describe("the kubelet's start-up writes", () => {
  it("are stored as the write path stores the kubelet's requests for them", async () => {
    const written = context();
    await register(written, false, [{ name: "node-1" }]);
    const direct = context();
    await register(direct, true, [{ name: "node-1" }]);
    expect(recorded(direct)).toEqual(recorded(written));
    const keys = recorded(direct).map((e) => JSON.parse(e).key);
    expect(keys.slice(4)).toEqual(["node-1", "node-1", "kube-node-lease/node-1"]);
  });

  it("end with the not-ready taint's removal, stored as the write path stores kube-controller-manager's update", async () => {
    // In the kubelet's second, and a later one.
    for (const laterMs of [0, 2_000]) {
      const written = await untaint(false, laterMs);
      const direct = await untaint(true, laterMs);
      expect(recorded(direct)).toEqual(recorded(written));
      const node = direct.store.get("/nodes", "node-1") as StoredObject;
      // The emptied taints are no field (Go's omitempty), so kube-controller-manager owns nothing.
      expect((node.spec as object | undefined) ?? {}).not.toHaveProperty("taints");
      const managers = (node.metadata.managedFields as { manager: string }[]).map((e) => e.manager);
      expect(managers).not.toContain("kube-controller-manager");
    }
  });

  it("untaint a node through the write path once someone else wrote it, or admission is configured", async () => {
    const labelling = {
      name: "Labelling",
      handles: () => true,
      admit(a: { resource: { resource: string }; operation: string; object?: Record<string, unknown> }) {
        if (a.resource.resource !== "nodes" || a.operation !== "UPDATE" || !a.object) return;
        const metadata = a.object.metadata as { labels?: Record<string, string> };
        metadata.labels = { ...metadata.labels, untainted: "yes" };
      },
    };
    const admission = new AdmissionChain([...defaultAdmissionChain().plugins, labelling]);
    const admitted = (await untaint(true, 0, { admission })).store.get("/nodes", "node-1") as StoredObject;
    expect(admitted.metadata.labels).toMatchObject({ untainted: "yes" });
    expect(admitted.spec).not.toHaveProperty("taints");

    const own = { key: "example.com/own", effect: "NoSchedule" };
    const write = (ctx: HandlerContext) => {
      const node = ctx.store.get("/nodes", "node-1") as StoredObject;
      const spec = node.spec as { taints: object[] };
      ctx.store.update("/nodes", "node-1", { ...node, spec: { ...spec, taints: [...spec.taints, own] } });
    };
    const tainted = (await untaint(true, 0, { write })).store.get("/nodes", "node-1") as StoredObject;
    expect(tainted.spec).toMatchObject({ taints: [own] });
  });

  it("go through the write path with more than one node, whose writes interleave there", async () => {
    const nodes = [{ name: "node-1" }, { name: "node-2" }];
    const written = context();
    await register(written, false, nodes);
    const direct = context();
    await register(direct, true, nodes);
    expect(recorded(direct)).toEqual(recorded(written));
  });

  it("go through the write path for a node with labels, taints or capacity of its own", async () => {
    const configured = { name: "node-1", labels: { zone: "a" }, capacity: { cpu: "8" } };
    expect(templatedNode(configured)).toBe(false);
    expect(templatedNode({ name: "node.example" })).toBe(false);
    expect(templatedNode({ name: "node-1", taints: [] })).toBe(true);
    const ctx = context();
    await register(ctx, true, [configured]);
    const node = ctx.store.get("/nodes", "node-1") as StoredObject;
    expect(node.metadata.labels).toMatchObject({ zone: "a" });
  });

  it("go through the write path when admission is configured, and never for a remote server's access", async () => {
    expect(new ClusterAccess(context(), "kubelet").templated()).toBe(false);
    const labelling = {
      name: "Labelling",
      handles: () => true,
      admit(a: { resource: { resource: string }; object?: Record<string, unknown> | undefined }) {
        if (a.resource.resource !== "nodes" || !a.object) return;
        const metadata = a.object.metadata as { labels?: Record<string, string> };
        metadata.labels = { ...metadata.labels, labelled: "yes" };
      },
    };
    const ctx = context(new AdmissionChain([...defaultAdmissionChain().plugins, labelling]));
    await register(ctx, true, [{ name: "node-1" }]);
    const node = ctx.store.get("/nodes", "node-1") as StoredObject;
    expect(node.metadata.labels).toMatchObject({ labelled: "yes" });
  });
});
