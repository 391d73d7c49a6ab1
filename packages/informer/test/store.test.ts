import type { KubernetesObject } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import {
  byLabel,
  byNamespace,
  type IndexFunc,
  IndexFunctionError,
  InvalidInformerOptionError,
  isDeletedFinalStateUnknown,
  NAMESPACE_INDEX,
} from "../src/index.js";
import { Store } from "../src/store.js";

const cm = (ns: string, name: string, rv: string, labels: Record<string, string> = {}): KubernetesObject => ({
  kind: "ConfigMap",
  metadata: { namespace: ns, name, resourceVersion: rv, labels },
});

describe("Store", () => {
  it("replace gives exactly one event per changed object, adds for new ones, tombstones for vanished ones, nothing for the rest", () => {
    const store = new Store({ indexers: { [NAMESPACE_INDEX]: byNamespace } });
    const kept = cm("a", "kept", "1");
    store.replace([kept, cm("a", "changed", "1"), cm("b", "gone", "1")]);
    const diff = store.replace([cm("a", "kept", "1"), cm("a", "changed", "2"), cm("b", "new", "3")]);

    expect(diff.added.map((o) => o.metadata?.name)).toEqual(["new"]);
    expect(
      diff.updated.map((u) => [u.oldObj.metadata?.resourceVersion, u.newObj.metadata?.resourceVersion]),
    ).toEqual([["1", "2"]]);
    expect(diff.deleted).toHaveLength(1);
    expect(isDeletedFinalStateUnknown(diff.deleted[0])).toBe(true);
    expect(diff.deleted[0]?.key).toBe("b/gone");
    expect(diff.deleted[0]?.obj.metadata?.resourceVersion).toBe("1");
    expect(diff.unchanged).toBe(1);
    // An unchanged object keeps its cached identity.
    expect(store.get("a/kept")).toBe(kept);
    expect(store.keys().sort()).toEqual(["a/changed", "a/kept", "b/new"]);
    expect(store.byIndex(NAMESPACE_INDEX, "b").map((o) => o.metadata?.name)).toEqual(["new"]);
  });

  it("keeps indexes in step with adds, moves between values and deletes; custom indexes can be added later", () => {
    const store = new Store({ indexers: { app: byLabel("app") } });
    store.upsert(cm("a", "x", "1", { app: "web" }));
    store.upsert(cm("a", "y", "1", { app: "web" }));
    store.upsert(cm("a", "x", "2", { app: "db" }));
    expect(store.indexKeys("app", "web")).toEqual(["a/y"]);
    expect(store.indexKeys("app", "db")).toEqual(["a/x"]);
    store.delete("a/y");
    expect(store.indexValues("app")).toEqual(["db"]);
    store.addIndexers({ ns: byNamespace });
    expect(store.indexKeys("ns", "a")).toEqual(["a/x"]);
    expect(() => store.addIndexers({ ns: byNamespace })).toThrow(InvalidInformerOptionError);
    expect(() => store.byIndex("nope", "x")).toThrow(InvalidInformerOptionError);
  });

  it("moves a key between namespace index values when an object under the same key changes namespace", () => {
    // Only an invalid name ("a/b", unnamespaced) shares a key with a namespaced object; the index follows anyway.
    const extras: Record<string, IndexFunc<KubernetesObject>>[] = [{}, { app: byLabel("app") }];
    for (const extra of extras) {
      const store = new Store({ indexers: { [NAMESPACE_INDEX]: byNamespace, ...extra } });
      store.upsert(cm("a", "b", "1"));
      store.upsert(cm("a", "b", "2"));
      expect(store.indexKeys(NAMESPACE_INDEX, "a")).toEqual(["a/b"]);
      store.upsert({ kind: "ConfigMap", metadata: { name: "a/b", resourceVersion: "3" } });
      expect(store.indexValues(NAMESPACE_INDEX)).toEqual([""]);
      expect(store.indexKeys(NAMESPACE_INDEX, "")).toEqual(["a/b"]);
    }
  });

  it("answers namespace index reads the same whether the index was first read before or after the changes", () => {
    const read = (store: Store) =>
      store
        .indexValues(NAMESPACE_INDEX)
        .sort()
        .map((ns) => [ns, store.indexKeys(NAMESPACE_INDEX, ns).sort()]);
    const early = new Store({ indexers: { [NAMESPACE_INDEX]: byNamespace } });
    const late = new Store({ indexers: { [NAMESPACE_INDEX]: byNamespace } });
    expect(read(early)).toEqual([]);
    for (const store of [early, late]) {
      store.replace([cm("a", "x", "1"), cm("a", "y", "1"), cm("b", "x", "1")]);
      store.upsert(cm("c", "z", "1"));
      store.upsert(cm("a", "x", "2"));
      store.delete("b/x");
      store.upsert({ kind: "ConfigMap", metadata: { name: "a/y", resourceVersion: "2" } });
    }
    const expected = [
      ["", ["a/y"]],
      ["a", ["a/x"]],
      ["c", ["c/z"]],
    ];
    expect(read(late)).toEqual(expected);
    expect(read(early)).toEqual(expected);
    // Built on first read, then kept up to date.
    late.delete("c/z");
    expect(late.indexKeys(NAMESPACE_INDEX, "c")).toEqual([]);
    expect(late.byIndex(NAMESPACE_INDEX, "a").map((o) => o.metadata?.resourceVersion)).toEqual(["2"]);
  });

  it("an index function that throws leaves the store unchanged for that object", () => {
    const store = new Store({
      indexers: {
        picky: (o) => {
          if (o.metadata?.name === "bad") throw new Error("no");
          return [o.metadata?.name ?? ""];
        },
      },
    });
    store.upsert(cm("a", "good", "1"));
    expect(() => store.upsert(cm("a", "bad", "1"))).toThrow(IndexFunctionError);
    expect(store.has("a/bad")).toBe(false);
    const errors: IndexFunctionError[] = [];
    const diff = store.replace([cm("a", "good", "1"), cm("a", "bad", "2")], (e) => errors.push(e));
    expect(errors).toHaveLength(1);
    expect(diff.added).toEqual([]);
    expect(store.keys()).toEqual(["a/good"]);
  });
});
