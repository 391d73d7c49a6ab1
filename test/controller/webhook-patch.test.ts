/**
 * The JSON Patch a mutating webhook answers with: applied to the object the API server sent, it
 * gives exactly the object the handler returned, and it names only what changed.
 */
import type { JsonPatchOperation } from "@kubesdk/client";
import { diffPatch } from "@kubesdk/controller";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/**
 * The operations diffPatch emits (add, remove, replace) applied as an API server applies them, with
 * member names as names: fast-check's keys include "__proto__" and "constructor", which
 * fast-json-patch refuses to touch, and a plain assignment of "__proto__" would set a prototype.
 */
function applied(doc: unknown, ops: readonly JsonPatchOperation[]): unknown {
  const root: Record<string, unknown> = { doc: JSON.parse(JSON.stringify(doc)) };
  for (const op of ops) {
    const tokens = op.path
      .split("/")
      .slice(1)
      .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
    // biome-ignore lint/suspicious/noExplicitAny: walking decoded JSON
    let parent: any = root;
    let key = "doc";
    for (const t of tokens) {
      expect(Object.hasOwn(parent, key), `${op.op} ${op.path}: no ${key}`).toBe(true);
      parent = parent[key];
      key = t;
    }
    const value = "value" in op ? op.value : undefined;
    if (Array.isArray(parent)) {
      const i = key === "-" ? parent.length : Number(key);
      if (op.op === "add") parent.splice(i, 0, value);
      else if (op.op === "remove") parent.splice(i, 1);
      else parent[i] = value;
    } else if (op.op === "remove") {
      expect(Object.hasOwn(parent, key), `remove ${op.path}: missing`).toBe(true);
      delete parent[key];
    } else {
      Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return root.doc;
}

const json = fc.jsonValue({ maxDepth: 4 });
const object = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 6 });

describe("diffPatch", () => {
  it("turns the original into the changed object, for any two JSON objects", () => {
    fc.assert(
      fc.property(object, object, (original, changed) => {
        const patch = diffPatch(original, changed);
        expect(applied(original, patch)).toEqual(JSON.parse(JSON.stringify(changed)));
      }),
      {
        numRuns: 300,
        // The pair CI's run found (keys that are names of Object.prototype's properties).
        examples: [
          [JSON.parse('{"":{}}'), JSON.parse('{"":{"__proto__":null}}')],
          [JSON.parse('{"constructor":{"prototype":1}}'), JSON.parse('{"__proto__":{"a":[1]},"toString":2}')],
        ],
      },
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
