/**
 * The JSON Patch a mutating webhook answers with: applied to the object the API server sent, it
 * gives exactly the object the handler returned, and it names only what changed.
 */
import { diffPatch } from "@kubesdk/controller";
import fc from "fast-check";
import jsonpatch from "fast-json-patch";
import { describe, expect, it } from "vitest";

const json = fc.jsonValue({ maxDepth: 4 });
const object = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 6 });

describe("diffPatch", () => {
  it("turns the original into the changed object, for any two JSON objects", () => {
    fc.assert(
      fc.property(object, object, (original, changed) => {
        const patch = diffPatch(original, changed);
        const applied = jsonpatch.applyPatch(
          structuredClone(original),
          structuredClone(patch) as never,
          true,
          false,
        );
        expect(applied.newDocument).toEqual(JSON.parse(JSON.stringify(changed)));
      }),
      { numRuns: 300 },
    );
  });

  it("is empty for equal objects", () => {
    fc.assert(
      fc.property(object, (o) => {
        expect(diffPatch(o, structuredClone(o))).toEqual([]);
      }),
    );
  });

  it("names only the changed leaves of a defaulted object", () => {
    const original = {
      apiVersion: "example.com/v1",
      kind: "WebApp",
      metadata: { name: "a", labels: { team: "x" } },
      spec: { image: "nginx:1", ports: [80, 443] },
    };
    const changed = structuredClone(original) as typeof original & { spec: { replicas?: number } };
    changed.spec.replicas = 1;
    changed.metadata.labels.team = "y";
    changed.spec.ports.pop();
    expect(diffPatch(original, changed)).toEqual(
      expect.arrayContaining([
        { op: "add", path: "/spec/replicas", value: 1 },
        { op: "replace", path: "/metadata/labels/team", value: "y" },
        { op: "remove", path: "/spec/ports/1" },
      ]),
    );
    expect(diffPatch(original, changed)).toHaveLength(3);
  });

  it("sends what JSON sends: a field set to undefined is removed", () => {
    const original = { spec: { a: 1, b: 2 } };
    expect(diffPatch(original, { spec: { a: 1, b: undefined } })).toEqual([
      { op: "remove", path: "/spec/b" },
    ]);
  });
});
