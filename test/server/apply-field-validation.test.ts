/**
 * Issue 36 (found by upstream's FieldValidation [Conformance] tests): what server-side apply does
 * with fields the schema does not declare and with repeated YAML keys, for built-in kinds and
 * custom resources. An undeclared field fails the conversion to the typed object (500, no reason,
 * whatever fieldValidation says); repeated keys are refused under Strict and returned as warnings
 * under Warn (the last value wins).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimpleCrd, deleteCrd } from "../support/crd.js";
import { expectPlainFailure } from "../support/plain-failure.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let crdName: string | undefined;
const ns = uniqueName("apply-fv");
const group = `${uniqueName("fv")}.example.com`;

beforeAll(async () => {
  t = await startTarget();
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  crdName = await createSimpleCrd(t, {
    group,
    plural: "probes",
    kind: "Probe",
    spec: {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      properties: { foo: { type: "string" } },
    },
  });
});
afterAll(async () => {
  if (crdName) await deleteCrd(t, crdName);
  await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t?.close();
});

const apply = (path: string, yaml: string) =>
  t.call("PATCH", path, { rawBody: yaml, contentType: "application/apply-patch+yaml" });
const cm = (name: string, validation?: string) =>
  `/api/v1/namespaces/${ns}/configmaps/${name}?fieldManager=m${validation ? `&fieldValidation=${validation}` : ""}`;

describe("server-side apply: undeclared fields", () => {
  it.each(["Strict", "Ignore", undefined])(
    "refuses one in a ConfigMap (fieldValidation %s)",
    async (mode) => {
      const name = uniqueName("cm");
      const res = await apply(
        cm(name, mode),
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\nbogus: 1\n`,
      );
      expectPlainFailure(
        res,
        `failed to create typed patch object (/${name}; /v1, Kind=ConfigMap): .bogus: field not declared in schema`,
      );
    },
  );

  it("names the namespace the configuration gives, and a custom resource's group", async () => {
    const path = `/apis/${group}/v1/namespaces/${ns}/probes/p1?fieldManager=m&fieldValidation=Strict`;
    const yaml = `apiVersion: ${group}/v1\nkind: Probe\nmetadata:\n  name: p1\n  namespace: ${ns}\n  unknownMeta: x\nspec:\n  foo: a\n`;
    expectPlainFailure(
      await apply(path, yaml),
      `failed to create typed patch object (${ns}/p1; ${group}/v1, Kind=Probe): .metadata.unknownMeta: field not declared in schema`,
    );
  });
});

describe("server-side apply: repeated YAML keys", () => {
  const repeated = (name: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: b\n  x: y\n  a: c\n  x: z\n`;

  it("are refused under Strict, each named by its line", async () => {
    const res = await apply(cm("strict", "Strict"), repeated("strict"));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      reason: "BadRequest",
      message:
        'error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:\n  line 8: key "a" already set in map\n  line 9: key "x" already set in map',
    });
  });

  it("are warnings under Warn, and the last value is applied", async () => {
    const res = await apply(cm("warn"), repeated("warn"));
    expect(res.status).toBe(201);
    // One header with both warnings, or two headers (joined by the HTTP client with a bare comma).
    const warnings = String(res.headers.warning).split(/,\s*(?=299 )/);
    expect(warnings).toEqual([
      '299 - "line 8: key \\"a\\" already set in map"',
      '299 - "line 9: key \\"x\\" already set in map"',
    ]);
    expect(res.json.data).toEqual({ a: "c", x: "z" });
  });

  it("in a configuration written as JSON are refused under Strict, named by their line", async () => {
    const json = `{"apiVersion": "v1", "kind": "ConfigMap",\n "metadata": {"name": "json"},\n "data": {"a": "b",\n  "a": "c"}}\n`;
    const res = await apply(cm("json", "Strict"), json);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      reason: "BadRequest",
      message:
        'error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:\n  line 4: key "a" already set in map',
    });
  });

  it("are dropped silently under Ignore", async () => {
    const res = await apply(cm("ignore", "Ignore"), repeated("ignore"));
    expect(res.status).toBe(201);
    expect(res.headers.warning).toBeUndefined();
    expect(res.json.data).toEqual({ a: "c", x: "z" });
  });

  it("in a custom resource under Strict", async () => {
    const path = `/apis/${group}/v1/namespaces/${ns}/probes/p2?fieldManager=m&fieldValidation=Strict`;
    const yaml = `apiVersion: ${group}/v1\nkind: Probe\nmetadata:\n  name: p2\nspec:\n  unknown: uk1\n  foo: foo1\n  foo: foo2\n`;
    const res = await apply(path, yaml);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      'error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:\n  line 8: key "foo" already set in map',
    );
  });
});
