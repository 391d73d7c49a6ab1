import type { ResourceClient } from "@kubesdk/client";
import type { KubernetesObject } from "@kubesdk/models";
import { isNotFound } from "@kubesdk/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueName } from "../support/target.js";
import { createEstablishedCrd, deleteCrd, namespacedSuite } from "./support.js";

/** The user's own type for the test CRD's objects. */
interface Widget extends KubernetesObject {
  spec: { size: number; color?: string; replicas?: number };
  status?: { phase?: string; replicas?: number };
}

const names = { group: `${uniqueName("typed")}.example.com`, plural: "widgets", kind: "Widget" };
const suite = namespacedSuite("client-cr");
let widgets: ResourceClient<Widget>;

beforeAll(async () => {
  await createEstablishedCrd(suite.kube, names);
  widgets = suite.kube.custom<Widget>({
    group: names.group,
    version: "v1",
    plural: "widgets",
    namespaced: true,
    kind: "Widget",
    subresources: ["status", "scale"],
  });
});
afterAll(async () => {
  await deleteCrd(suite.kube, names);
});

const widget = (name: string, size: number): Widget => ({
  apiVersion: `${names.group}/v1`,
  kind: "Widget",
  metadata: { name },
  spec: { size, replicas: 1 },
});

describe("custom resources typed by the caller", () => {
  it("creates, gets, lists, replaces and deletes", async () => {
    const created = await widgets.create(widget("w1", 3));
    expect(created.spec.size).toBe(3);
    expect(created.metadata?.namespace).toBe(suite.ns);
    const got = await widgets.get("w1");
    const replaced = await widgets.replace({ ...got, spec: { ...got.spec, color: "red" } });
    expect(replaced.spec).toEqual({ size: 3, replicas: 1, color: "red" });
    const list = await widgets.list();
    expect(list.items.map((w) => [w.kind, w.metadata?.name])).toEqual([["Widget", "w1"]]);
    await widgets.delete("w1");
    await expect(widgets.get("w1")).rejects.toSatisfy(isNotFound);
  });

  it("patches with merge, JSON and apply patches, and refuses strategic merge before sending", async () => {
    await widgets.create(widget("w2", 1));
    expect(
      (await widgets.patch("w2", { type: "merge", patch: { spec: { color: "blue" } } })).spec.color,
    ).toBe("blue");
    const json = await widgets.patch("w2", {
      type: "json",
      operations: [{ op: "replace", path: "/spec/size", value: 2 }],
    });
    expect(json.spec.size).toBe(2);
    const applied = await widgets.apply(
      { apiVersion: `${names.group}/v1`, kind: "Widget", metadata: { name: "w2" }, spec: { size: 5 } },
      { fieldManager: "widget-test", conflicts: "force" },
    );
    expect(applied.spec.size).toBe(5);
    await expect(
      widgets.patch("w2", { type: "strategic", patch: { spec: { size: 6 } } }),
    ).rejects.toMatchObject({
      code: "STRATEGIC_MERGE_UNSUPPORTED",
    });
  });

  it("reads and writes the status and scale subresources", async () => {
    await widgets.create(widget("w3", 1));
    const status = await widgets.status.patch("w3", {
      type: "merge",
      patch: { status: { phase: "Ready", replicas: 1 } },
    });
    expect(status.status?.phase).toBe("Ready");
    // Writes to the main resource leave the status alone when a status subresource exists.
    const main = await widgets.patch("w3", { type: "merge", patch: { status: { phase: "Ignored" } } });
    expect(main.status?.phase).toBe("Ready");

    const scale = await widgets.scale.get("w3");
    expect(scale).toMatchObject({ kind: "Scale", spec: { replicas: 1 }, status: { replicas: 1 } });
    await widgets.scale.patch("w3", { type: "merge", patch: { spec: { replicas: 4 } } });
    expect((await widgets.get("w3")).spec.replicas).toBe(4);
  });

  it("renders tables with the CRD's printer columns", async () => {
    await widgets.create(widget("w4", 7));
    const table = await widgets.asTable().get("w4");
    const sizeColumn = table.columnDefinitions.findIndex((c) => c.name === "Size");
    expect(sizeColumn).toBeGreaterThan(0);
    expect(table.rows[0]?.cells[sizeColumn]).toBe(7);
  });

  it("watches with typed events", async () => {
    const start = await widgets.list();
    const watch = widgets.watch({ resourceVersion: start.metadata?.resourceVersion as string });
    await widgets.create(widget("w5", 9));
    for await (const event of watch) {
      expect(event.type).toBe("ADDED");
      expect(event.object.spec.size).toBe(9);
      break;
    }
  });
});
