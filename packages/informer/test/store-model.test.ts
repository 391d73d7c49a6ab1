/**
 * The store against the simplest correct model: one flat Map keyed by `objectKey`. Namespaces and
 * names include "" and "/" (which the API server rejects, but a store must still be exact for), so
 * every way of cutting a key into (namespace, name) is exercised.
 */
import type { KubernetesObject } from "@kubesdk/models";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byLabel, byNamespace, NAMESPACE_INDEX, objectKey } from "../src/index.js";
import { Store } from "../src/store.js";

// A number and a missing name stand for what no valid object holds: the store must stay exact anyway.
const namespaces = ["", "a", "b", "a/x", 7 as unknown as string];
const names = ["n", "b", "a/b", "x/n", "", undefined as unknown as string];

const objArb: fc.Arbitrary<Spec> = fc.record({
  namespace: fc.constantFrom(...namespaces),
  name: fc.constantFrom(...names),
  rv: fc.constantFrom("1", "2", "3"),
  uid: fc.constantFrom("u1", "u2"),
  app: fc.constantFrom("web", "db"),
});
interface Spec {
  readonly namespace: string;
  readonly name: string;
  readonly rv: string;
  readonly uid: string;
  readonly app: string;
}

const make = (s: Spec): KubernetesObject => ({
  kind: "ConfigMap",
  metadata: {
    ...(s.namespace === "" ? {} : { namespace: s.namespace }),
    ...(s.name === undefined ? {} : { name: s.name }),
    resourceVersion: s.rv,
    uid: s.uid,
    labels: { app: s.app },
  },
});

const opArb = fc.oneof(
  fc.record({ kind: fc.constant("upsert" as const), obj: objArb }),
  fc.record({ kind: fc.constant("delete" as const), obj: objArb }),
  fc.record({ kind: fc.constant("replace" as const), objs: fc.array(objArb, { maxLength: 8 }) }),
);

const sortedKeys = (xs: readonly KubernetesObject[]) => xs.map(objectKey).sort();

describe("Store, against a flat map keyed by namespace/name", () => {
  it("agrees on every read, every replace diff and every index after any sequence of changes", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), fc.boolean(), (ops, withLabelIndex) => {
        const store = new Store({
          indexers: { [NAMESPACE_INDEX]: byNamespace, ...(withLabelIndex ? { app: byLabel("app") } : {}) },
        });
        const model = new Map<string, KubernetesObject>();
        for (const op of ops) {
          if (op.kind === "upsert") {
            const obj = make(op.obj);
            expect(store.upsert(obj)).toBe(model.get(objectKey(obj)));
            model.set(objectKey(obj), obj);
          } else if (op.kind === "delete") {
            const key = objectKey(make(op.obj));
            expect(store.delete(key)).toBe(model.get(key));
            model.delete(key);
          } else {
            const objs = op.objs.map(make);
            const diff = store.replace(objs);
            // The model of replace: items in order against the state so far, then every key not listed goes.
            const next = new Map<string, KubernetesObject>();
            const expected = { added: [] as string[], updated: [] as string[], deleted: [] as string[] };
            for (const obj of objs) {
              const key = objectKey(obj);
              const prior = next.has(key) ? next.get(key) : model.get(key);
              if (prior !== undefined && prior.metadata?.resourceVersion === obj.metadata?.resourceVersion) {
                next.set(key, prior);
                continue;
              }
              next.set(key, obj);
              if (prior === undefined) expected.added.push(key);
              else if (prior.metadata?.uid !== obj.metadata?.uid) {
                expected.deleted.push(key);
                expected.added.push(key);
              } else expected.updated.push(key);
            }
            for (const key of model.keys()) if (!next.has(key)) expected.deleted.push(key);
            expect(sortedKeys(diff.added)).toEqual(expected.added.sort());
            expect(sortedKeys(diff.updated.map((u) => u.newObj))).toEqual(expected.updated.sort());
            expect(diff.deleted.map((d) => d.key).sort()).toEqual(expected.deleted.sort());
            model.clear();
            for (const [k, v] of next) model.set(k, v);
          }
          expect(store.size).toBe(model.size);
          expect(store.keys().sort()).toEqual([...model.keys()].sort());
          expect([...store.entries()].map(([k, v]) => [k, v]).sort()).toEqual([...model.entries()].sort());
          for (const [key, obj] of model) {
            expect(store.get(key)).toBe(obj);
            expect(store.stored(obj)).toBe(obj);
            expect(store.has(key)).toBe(true);
          }
          for (const ns of namespaces)
            expect(store.indexKeys(NAMESPACE_INDEX, ns).sort()).toEqual(
              [...model]
                .filter(([, o]) => (o.metadata?.namespace ?? "") === ns)
                .map(([k]) => k)
                .sort(),
            );
          if (withLabelIndex)
            for (const app of ["web", "db"])
              expect(store.indexKeys("app", app).sort()).toEqual(
                [...model]
                  .filter(([, o]) => o.metadata?.labels?.app === app)
                  .map(([k]) => k)
                  .sort(),
              );
        }
      }),
      { numRuns: 400 },
    );
  });
});
