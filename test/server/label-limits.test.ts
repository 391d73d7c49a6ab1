/**
 * Label keys and values at the edges of their rules (63 bytes, prefixes, non-ASCII), on a create:
 * validation/object-meta.ts answers plain keys and values without building their problem lists, so
 * these pin that the answers around those edges stay kube-apiserver's.
 */
import { describe, expect, it } from "vitest";
import { useNamespaceSuite } from "../support/namespace-suite.js";
import type { TestTarget } from "../support/target.js";

let t: TestTarget;
let ns: string;

useNamespaceSuite("label-limits", (target, name) => {
  t = target;
  ns = name;
});

const create = (name: string, labels: Record<string, string>) =>
  t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, {
    body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name, labels } },
  });

/** The causes of a 422, as field and message. */
const causes = (json: { details?: { causes?: { field: string; message: string }[] } }) =>
  (json.details?.causes ?? []).map((c) => [c.field, c.message]);

describe("label keys and values at their limits", () => {
  it("accepts 63-character keys and values, prefixed keys and empty values", async () => {
    const labels = {
      ["k".repeat(63)]: "v".repeat(63),
      "example.com/app": "",
      "a.b_c-d": "x.Y_z-9",
    };
    const res = await create("edge-ok", labels);
    expect(res.status).toBe(201);
    expect(res.json.metadata.labels).toEqual(labels);
  });

  it("refuses a 64-character key and a 64-character value with upstream's causes", async () => {
    const key = await create("edge-key", { ["k".repeat(64)]: "v" });
    expect(key.status).toBe(422);
    expect(causes(key.json)).toEqual([
      ["metadata.labels", `Invalid value: "${"k".repeat(64)}": name part must be no more than 63 bytes`],
    ]);
    const value = await create("edge-value", { app: "v".repeat(64) });
    expect(value.status).toBe(422);
    expect(causes(value.json)).toEqual([
      ["metadata.labels", `Invalid value: "${"v".repeat(64)}": must be no more than 63 bytes`],
    ]);
  });

  it("refuses a non-ASCII value and a key with an empty prefix", async () => {
    const res = await create("edge-mixed", { app: "é", "/name": "x" });
    expect(res.status).toBe(422);
    const fields = causes(res.json);
    expect(fields.map(([field]) => field)).toEqual(["metadata.labels", "metadata.labels"]);
    expect(fields.map(([, message]) => message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Invalid value: "é": a valid label must be an empty string or consist of/),
        'Invalid value: "/name": prefix part must be non-empty',
      ]),
    );
  });
});
