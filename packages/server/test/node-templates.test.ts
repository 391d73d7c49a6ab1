/**
 * The simulated kubelet's start-up writes committed from templates (src/cluster/node-templates.ts)
 * are what the write path stores for its requests: the Node (with the not-ready taint admission
 * adds), its Ready status and its Lease, the same events in the same order, field order included,
 * only the uids differing. Configured nodes and configured admission still take the write path.
 */
import { describe, expect, it } from "vitest";
import { AdmissionChain, defaultAdmissionChain } from "../src/admission/index.js";
import { bootstrap } from "../src/bootstrap.js";
import { WorkLoop } from "../src/cluster/loop.js";
import { NodeAgent, type SimulatedNodeConfig } from "../src/cluster/node-agent.js";
import { templatedNode } from "../src/cluster/node-templates.js";
import { ClusterAccess } from "../src/cluster/objects.js";
import type { HandlerContext } from "../src/endpoints/handlers/context.js";
import type { StoredObject } from "../src/storage/mvcc.js";
import { fixedClockContext, recorded } from "./support/recorded-events.js";

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
