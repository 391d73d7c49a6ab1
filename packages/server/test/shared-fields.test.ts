/** The store shares equal managedFields field sets between stored objects, without changing any answer. */
import { describe, expect, it } from "vitest";
import { decodeFields } from "../src/fieldmanager/entry-sets.js";
import { MvccStore, type StoredObject } from "../src/storage/mvcc.js";
import { isSharedTree } from "../src/storage/shared-fields.js";

const entry = (fieldsV1: object) => ({
  manager: "m",
  operation: "Update",
  apiVersion: "v1",
  time: "2026-12-06T00:00:00Z",
  fieldsType: "FieldsV1",
  fieldsV1,
});
const tree = () => ({ "f:data": { ".": {}, "f:a": {} }, "f:metadata": { "f:labels": { "f:x": {} } } });
const object = (name: string, fieldsV1: object): StoredObject => ({
  metadata: { name, managedFields: [entry(fieldsV1)] },
  data: { a: name },
});
const fieldsOf = (o: StoredObject) => (o.metadata.managedFields as Array<{ fieldsV1: object }>)[0]?.fieldsV1;

describe("shared managedFields sets", () => {
  it("stores equal trees once, with the same JSON, leaving the written objects alone", () => {
    const store = new MvccStore();
    const first = object("a", tree());
    const a = store.create("cm", "ns/a", first);
    const b = store.create("cm", "ns/b", object("b", tree()));
    expect(fieldsOf(a)).toBe(fieldsOf(b));
    expect(Object.isFrozen(fieldsOf(a))).toBe(true);
    expect(JSON.stringify(a)).toBe(
      JSON.stringify({ ...first, metadata: { ...first.metadata, resourceVersion: "2" } }),
    );
    expect(Object.isFrozen(fieldsOf(first))).toBe(false);
    expect(fieldsOf(first)).not.toBe(fieldsOf(a));
  });

  it("keeps trees apart that differ in content or in key order", () => {
    const store = new MvccStore();
    const a = store.create("cm", "ns/a", object("a", tree()));
    const other = store.create(
      "cm",
      "ns/b",
      object("b", { "f:data": { "f:a": {}, ".": {} }, "f:metadata": {} }),
    );
    const reordered = store.create(
      "cm",
      "ns/c",
      object("c", { "f:metadata": tree()["f:metadata"], "f:data": tree()["f:data"] }),
    );
    expect(fieldsOf(other)).not.toBe(fieldsOf(a));
    expect(fieldsOf(reordered)).not.toBe(fieldsOf(a));
    expect(JSON.stringify(fieldsOf(reordered))).toBe(
      JSON.stringify({ "f:metadata": tree()["f:metadata"], "f:data": tree()["f:data"] }),
    );
  });

  it("keeps large trees per object (the table holds texts of up to 4 KiB)", () => {
    const store = new MvccStore();
    const large = () => Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f:key-${i}`, {}]));
    const a = store.create("cm", "ns/a", object("a", { "f:data": large() }));
    const b = store.create("cm", "ns/b", object("b", { "f:data": large() }));
    expect(fieldsOf(a)).not.toBe(fieldsOf(b));
    expect(Object.isFrozen(fieldsOf(a))).toBe(false);
  });

  it("keeps what is not a field set as it is", () => {
    const store = new MvccStore();
    const odd = { metadata: { name: "x", managedFields: [{ manager: "m" }, "text", null] }, data: {} };
    const stored = store.create("cm", "ns/x", odd as unknown as StoredObject);
    expect(stored.metadata.managedFields).toBe(odd.metadata.managedFields);
    const none = store.create("cm", "ns/y", { metadata: { name: "y" } });
    expect("managedFields" in none.metadata).toBe(false);
  });

  it("names the trees it shares, and those decode as the same JSON text does", () => {
    const store = new MvccStore();
    const written = tree();
    const shared = fieldsOf(store.create("cm", "ns/a", object("a", written)));
    expect(isSharedTree(shared)).toBe(true);
    expect(isSharedTree(written)).toBe(false);
    expect(isSharedTree(Object.freeze({}))).toBe(false);
    // Not in upstream's encoding ("." after a field): the identity lookup must keep that answer.
    const odd = { "f:data": { "f:a": {}, ".": {} } };
    const oddShared = fieldsOf(store.create("cm", "ns/b", object("b", odd)));
    for (const [s, w] of [
      [shared, written],
      [oddShared, odd],
    ] as const) {
      const byTree = decodeFields(s);
      expect(decodeFields(s)).toBe(byTree);
      const byText = decodeFields(JSON.parse(JSON.stringify(w)));
      expect(byTree.canonical).toBe(byText.canonical);
      expect(byTree.set.toFieldsV1()).toEqual(byText.set.toFieldsV1());
    }
    expect(decodeFields(oddShared).canonical).toBe(false);
    expect(decodeFields(shared).canonical).toBe(true);
  });
});
