import { schemaFor } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import { StatusError } from "../src/api/status.js";
import { applyStrategicMergePatch } from "../src/patch/strategic-merge.js";

const POD = schemaFor({ group: "", version: "v1", kind: "Pod" });
const patch = (target: unknown, p: unknown) => applyStrategicMergePatch(target, p, POD);

const pod = {
  metadata: { name: "p", labels: { a: "1", b: "2" }, finalizers: ["x", "y"] },
  spec: {
    containers: [
      { name: "app", image: "app:1", ports: [{ containerPort: 80 }] },
      { name: "side", image: "side:1" },
    ],
  },
};

describe("strategic merge patch", () => {
  it("merges list items by their merge key and keeps the others", () => {
    const out = patch(pod, { spec: { containers: [{ name: "side", image: "side:2" }] } }) as typeof pod;
    expect(out.spec.containers).toEqual([
      { name: "app", image: "app:1", ports: [{ containerPort: 80 }] },
      { name: "side", image: "side:2" },
    ]);
  });

  it("adds items with a new key (patch items first, as upstream orders them) and deletes by directive", () => {
    const added = patch(pod, { spec: { containers: [{ name: "new", image: "n" }] } }) as typeof pod;
    expect(added.spec.containers.map((c) => c.name)).toEqual(["new", "app", "side"]);
    const removed = patch(pod, { spec: { containers: [{ name: "app", $patch: "delete" }] } }) as typeof pod;
    expect(removed.spec.containers.map((c) => c.name)).toEqual(["side"]);
  });

  it("removes map keys set to null and replaces a map with $patch: replace", () => {
    const out = patch(pod, { metadata: { labels: { a: null, c: "3" } } }) as typeof pod;
    expect(out.metadata.labels).toEqual({ b: "2", c: "3" });
    const replaced = patch(pod, { metadata: { labels: { $patch: "replace", z: "9" } } }) as typeof pod;
    expect(replaced.metadata.labels).toEqual({ z: "9" });
  });

  it("unions merge-strategy scalar lists and deletes from them by directive", () => {
    const out = patch(pod, { metadata: { finalizers: ["z"] } }) as typeof pod;
    expect(out.metadata.finalizers).toEqual(["x", "y", "z"]);
    const dropped = patch(pod, { metadata: { "$deleteFromPrimitiveList/finalizers": ["x"] } }) as typeof pod;
    expect(dropped.metadata.finalizers).toEqual(["y"]);
  });

  it("orders merged items by $setElementOrder", () => {
    const out = patch(pod, {
      spec: { "$setElementOrder/containers": [{ name: "side" }, { name: "app" }], containers: [] },
    }) as typeof pod;
    expect(out.spec.containers.map((c) => c.name)).toEqual(["side", "app"]);
  });

  it("does not change its input and rejects a patch that is not an object", () => {
    const before = JSON.stringify(pod);
    patch(pod, { spec: { containers: [{ name: "app", image: "app:2" }] } });
    expect(JSON.stringify(pod)).toBe(before);
    expect(() => patch(pod, [1])).toThrow(StatusError);
  });
});
