/**
 * A null value in a map of scalars is stored as Go decodes it, as the type's zero value: a
 * ConfigMap's or Secret's `"b": null` as `""`, a Service selector's as `""`, a quota's `"pods": null`
 * as `"0"`. Both targets.
 */
import { describe, expect, it } from "vitest";
import { useNamespaceSuite } from "../support/namespace-suite.js";
import type { TestTarget } from "../support/target.js";

let t: TestTarget;
let ns: string;
useNamespaceSuite("null-map-values", (target, name) => {
  t = target;
  ns = name;
});

const ROWS = [
  { resource: "configmaps", body: { data: { a: "1", b: null } }, at: ["data"], want: { a: "1", b: "" } },
  { resource: "secrets", body: { data: { b: null } }, at: ["data"], want: { b: "" } },
  {
    resource: "services",
    body: { spec: { ports: [{ port: 80 }], selector: { app: null } } },
    at: ["spec", "selector"],
    want: { app: "" },
  },
  {
    resource: "resourcequotas",
    body: { spec: { hard: { pods: null } } },
    at: ["spec", "hard"],
    want: { pods: "0" },
  },
] as const;

describe("null values in maps of scalars", () => {
  it.each(ROWS)("$resource: $at", async (row) => {
    const path = `/api/v1/namespaces/${ns}/${row.resource}`;
    const res = await t.call("POST", path, { body: { metadata: { name: "n" }, ...row.body } });
    expect(res.status, res.text).toBe(201);
    const got = await t.call("GET", `${path}/n`);
    // biome-ignore lint/suspicious/noExplicitAny: walking the answer
    expect(row.at.reduce((o: any, k) => o?.[k], got.json)).toEqual(row.want);
  });
});
