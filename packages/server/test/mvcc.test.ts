import { describe, expect, it } from "vitest";
import { CompactedError, MvccStore, PreconditionError, type StoreEvent } from "../src/storage/mvcc.js";

const obj = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name }, ...extra });
const names = (items: readonly { metadata: Record<string, unknown> }[]) => items.map((o) => o.metadata.name);

describe("MvccStore", () => {
  it("stamps every write with the next global revision", () => {
    const s = new MvccStore();
    expect(s.revision).toBe(1);
    const a = s.create("cm", "ns/a", obj("a"));
    const b = s.create("pods", "ns/b", obj("b"));
    expect(a.metadata.resourceVersion).toBe("2");
    expect(b.metadata.resourceVersion).toBe("3");
    const a2 = s.update("cm", "ns/a", obj("a", { data: { x: "1" } }));
    expect(a2.metadata.resourceVersion).toBe("4");
    expect(s.revision).toBe(4);
    expect(s.count("cm")).toBe(1);
  });

  it("reads past revisions until they are compacted", () => {
    const s = new MvccStore();
    s.create("cm", "a", obj("a", { v: 1 }));
    s.update("cm", "a", obj("a", { v: 2 }));
    s.delete("cm", "a");
    expect(s.get("cm", "a")).toBeUndefined();
    expect(s.get("cm", "a", 2)?.v).toBe(1);
    expect(s.get("cm", "a", 3)?.v).toBe(2);
    s.compact(3);
    expect(s.compactedRevision).toBe(3);
    expect(() => s.get("cm", "a", 2)).toThrow(CompactedError);
    expect(s.get("cm", "a", 3)?.v).toBe(2);
    s.compact();
    expect(s.list("cm").items).toEqual([]);
  });

  it("forgets revisions older than five minutes by default (kube-apiserver's compaction interval)", () => {
    let now = 0;
    const s = new MvccStore(undefined, () => now);
    s.create("cm", "a", obj("a", { v: 1 }));
    now = 1;
    s.update("cm", "a", obj("a", { v: 2 }));
    now = 5 * 60_000 + 1;
    s.create("cm", "b", obj("b"));
    expect(s.get("cm", "a", 2)?.v).toBe(1);
    // Compactions by age come at most every ten seconds.
    now = 5 * 60_000 + 10_002;
    s.create("cm", "c", obj("c"));
    // Revision 3 is older than five minutes too, but the newest state before the window: still readable.
    expect(() => s.get("cm", "a", 2)).toThrow(CompactedError);
    expect(s.get("cm", "a", 3)?.v).toBe(2);
  });

  it("enforces create/update/delete preconditions", () => {
    const s = new MvccStore();
    s.create("cm", "a", obj("a"));
    expect(() => s.create("cm", "a", obj("a"))).toThrow(PreconditionError);
    expect(() => s.update("cm", "missing", obj("m"))).toThrow(PreconditionError);
    expect(() => s.update("cm", "a", obj("a"), 1)).toThrow(PreconditionError);
    expect(() => s.delete("cm", "a", 1)).toThrow(PreconditionError);
    expect(s.update("cm", "a", obj("a"), 2).metadata.resourceVersion).toBe("3");
    // A deleted key can be created again.
    s.delete("cm", "a");
    expect(s.create("cm", "a", obj("a")).metadata.resourceVersion).toBe("5");
  });

  it("lists by prefix in key order, paginated with a next key and remaining count", () => {
    const s = new MvccStore();
    for (const k of ["b/2", "a/3", "a/1", "a/2", "c/1"]) s.create("cm", k, obj(k));
    expect(names(s.list("cm").items)).toEqual(["a/1", "a/2", "a/3", "b/2", "c/1"]);
    expect(names(s.list("cm", { prefix: "a/" }).items)).toEqual(["a/1", "a/2", "a/3"]);
    const page = s.list("cm", { limit: 2, countRemaining: true });
    expect(names(page.items)).toEqual(["a/1", "a/2"]);
    expect(page.nextKey).toBe("a/3");
    expect(page.remaining).toBe(3);
    const next = s.list("cm", { limit: 2, startKey: page.nextKey, atRev: page.rev });
    expect(names(next.items)).toEqual(["a/3", "b/2"]);
    const filtered = s.list("cm", { filter: (o) => String(o.metadata.name).endsWith("1") });
    expect(names(filtered.items)).toEqual(["a/1", "c/1"]);
  });

  it("keeps a paginated list consistent at its revision while writes go on", () => {
    const s = new MvccStore();
    for (const k of ["a", "b", "c"]) s.create("cm", k, obj(k));
    const first = s.list("cm", { limit: 1 });
    s.delete("cm", "b");
    s.create("cm", "bb", obj("bb"));
    const rest = s.list("cm", { startKey: first.nextKey, atRev: first.rev });
    expect(names(rest.items)).toEqual(["b", "c"]);
  });

  it("reports events in revision order, with the previous state", () => {
    const s = new MvccStore();
    const seen: StoreEvent[] = [];
    const off = s.subscribe((e) => seen.push(e));
    s.create("cm", "a", obj("a", { v: 1 }));
    s.update("cm", "a", obj("a", { v: 2 }));
    s.delete("cm", "a");
    off();
    s.create("cm", "b", obj("b"));
    expect(seen.map((e) => [e.type, e.rev])).toEqual([
      ["ADDED", 2],
      ["MODIFIED", 3],
      ["DELETED", 4],
    ]);
    expect(seen[1]?.prev?.v).toBe(1);
    expect(seen[2]?.object.metadata.resourceVersion).toBe("4");
    expect(s.eventsSince(3).map((e) => e.type)).toEqual(["DELETED", "ADDED"]);
    s.compact(4);
    expect(() => s.eventsSince(2)).toThrow(CompactedError);
  });

  it("names the snapshot a whole list read, the same one until a write", () => {
    const s = new MvccStore();
    for (const name of ["a", "b", "c"]) s.create("cm", `ns/${name}`, obj(name));
    const whole = s.list("cm", { prefix: "ns/" });
    expect(whole.snapshot).toBeDefined();
    expect(s.list("cm", { prefix: "ns/" }).snapshot).toBe(whole.snapshot);
    // Pages and filtered reads are not the whole snapshot.
    expect(s.list("cm", { prefix: "ns/", limit: 2 }).snapshot).toBeUndefined();
    expect(s.list("cm", { prefix: "ns/", startKey: "ns/b" }).snapshot).toBeUndefined();
    expect(s.list("cm", { prefix: "ns/", filter: () => true }).snapshot).toBeUndefined();
    s.create("cm", "ns/d", obj("d"));
    const after = s.list("cm", { prefix: "ns/" });
    expect(after.snapshot).not.toBe(whole.snapshot);
    expect(names(after.items)).toEqual(["a", "b", "c", "d"]);
    // The snapshot of a past revision is still that revision's.
    expect(names(s.list("cm", { prefix: "ns/", atRev: 4 }).items)).toEqual(["a", "b", "c"]);
  });
});
