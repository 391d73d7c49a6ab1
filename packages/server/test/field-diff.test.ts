/**
 * An update's managedFields come from one walk of each object into a trie (field-diff.ts,
 * recordUpdateWalked), where a large update compares leaf maps a slice at a time (leafFields and
 * recordUpdate). Both must give the same entries for the same objects.
 */
import { schemaFor, type TypeNode } from "@kubesdk/models";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ManagedFieldsEntry,
  recordUpdate,
  recordUpdateWalked,
} from "../src/fieldmanager/managed-fields.js";
import { type FieldScope, leafFields } from "../src/fieldmanager/object-fields.js";

const POD = schemaFor({ group: "", version: "v1", kind: "Pod" });
const CONFIGMAP = schemaFor({ group: "", version: "v1", kind: "ConfigMap" });

type Obj = Record<string, unknown>;

const container = (name: string, image = "nginx") => ({
  name,
  image,
  ports: [{ containerPort: 80, protocol: "TCP" }],
  env: [{ name: "A", value: "1" }],
  args: ["--x"],
});

const pod = (spec: Obj, status: Obj = { phase: "Pending" }): Obj => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p", labels: { a: "1" }, finalizers: ["a/b"] },
  spec,
  status,
});

const configMap = (data: unknown, labels: unknown = { a: "1" }): Obj => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "c", namespace: "n", uid: "u", labels },
  data,
});

const untyped = (spec: unknown): Obj => ({ apiVersion: "x/v1", kind: "X", metadata: { name: "x" }, spec });

/** [what, old, new, schema] */
const pairs: ReadonlyArray<[string, Obj, Obj, TypeNode | undefined]> = [
  ["a changed value", configMap({ k: "v" }), configMap({ k: "w" }), CONFIGMAP],
  ["an added and a removed key", configMap({ k: "v", gone: "x" }), configMap({ k: "v", n: "1" }), CONFIGMAP],
  ["a map emptied", configMap({ k: "v" }), configMap({}), CONFIGMAP],
  ["a map removed", configMap({ k: "v" }, { a: "1" }), configMap({ k: "v" }, undefined), CONFIGMAP],
  ["nothing changed", configMap({ k: "v" }), configMap({ k: "v" }), CONFIGMAP],
  ["a value turned null", configMap({ k: "v" }), configMap({ k: null }), CONFIGMAP],
  [
    "a container added, one changed, an atomic list changed",
    pod({ containers: [container("a"), container("b")] }),
    pod({ containers: [container("a", "busybox"), { ...container("b"), args: ["--y"] }, container("c")] }),
    POD,
  ],
  [
    "a container removed, a set member added",
    pod({ containers: [container("a"), container("b")] }),
    {
      ...pod({ containers: [container("b")] }),
      metadata: { name: "p", labels: { a: "1" }, finalizers: ["a/b", "c/d"] },
    },
    POD,
  ],
  ["status changed", pod({ containers: [] }), pod({ containers: [] }, { phase: "Running" }), POD],
  [
    "an atomic value with its keys in another order, null against NaN",
    untyped({ l: [{ a: 1, b: 2 }], n: null, m: { x: 1 } }),
    untyped({ l: [{ b: 2, a: 1 }], n: Number.NaN, m: {} }),
    undefined,
  ],
  [
    "undefined values",
    untyped({ a: undefined, b: 1, c: undefined }),
    untyped({ a: undefined, b: undefined, d: undefined }),
    undefined,
  ],
];

const record = { manager: "m", apiVersion: "v1", subresource: undefined, time: "2026-01-02T00:00:00Z" };

/** Entries an update starts from: none, another manager's, the writer's own previous entry. */
function startingEntries(old: Obj, schema: TypeNode | undefined, scope: FieldScope): ManagedFieldsEntry[][] {
  const everything = recordUpdate({
    ...record,
    manager: "creator",
    entries: [],
    oldLeaves: new Map(),
    newLeaves: leafFields(old, schema, scope, "no-structs"),
  });
  const mine = everything.map((e) => ({ ...e, manager: "m", time: "2026-01-01T00:00:00Z" }));
  return [[], everything, mine, [...everything, ...mine]];
}

function expectSameEntries(old: Obj, next: Obj, schema: TypeNode | undefined, scope: FieldScope): void {
  for (const entries of startingEntries(old, schema, scope)) {
    const walked = recordUpdateWalked({ ...record, entries, old, next, schema, scope });
    const byLeaves = recordUpdate({
      ...record,
      entries,
      oldLeaves: leafFields(old, schema, scope),
      newLeaves: leafFields(next, schema, scope, "all"),
    });
    expect(walked).toEqual(byLeaves);
  }
}

describe("an update's fields from one walk of each object", () => {
  for (const [what, old, next, schema] of pairs)
    for (const scope of ["all", "main", "status"] as FieldScope[])
      it(`give the leaf maps' entries: ${what}, scope ${scope}`, () => {
        expectSameEntries(old, next, schema, scope);
        expectSameEntries(next, old, schema, scope);
      });

  it("give the leaf maps' entries for any two untyped objects (fast-check)", () => {
    const spec = fc.dictionary(fc.constantFrom("a", "b", "c"), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 });
    fc.assert(
      fc.property(spec, spec, (a, b) => {
        expectSameEntries(untyped(a), untyped(b), undefined, "all");
      }),
    );
  });
});
