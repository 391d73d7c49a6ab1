/**
 * Issue 36 (found by upstream's FieldValidation [Conformance] test "unknown and duplicate fields
 * of a typed object"; divergence CF3, closed): the order of a strict decoding error's fields. A
 * built-in object's create or update body is decoded strictly in one pass, so its unknown and
 * duplicate fields come in document order, each once, and nothing inside an unknown field is
 * looked at. A custom resource's duplicates come from decoding and its unknown fields from
 * pruning afterwards, so there the duplicates come first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimpleCrd, deleteCrd } from "../support/crd.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let crdName: string | undefined;
const ns = uniqueName("strict-fv");
const group = `${uniqueName("sfv")}.example.com`;

beforeAll(async () => {
  t = await startTarget();
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  crdName = await createSimpleCrd(t, {
    group,
    plural: "gauges",
    kind: "Gauge",
    spec: { type: "object", properties: { size: { type: "integer" } } },
  });
});
afterAll(async () => {
  if (crdName) await deleteCrd(t, crdName);
  await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t?.close();
});

const deployments = `/apis/apps/v1/namespaces/${ns}/deployments`;
const configMaps = `/api/v1/namespaces/${ns}/configmaps`;

/** A Deployment's JSON text with `specHead` (raw JSON members) before its selector and template. */
const deployment = (name: string, specHead: string) =>
  `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"${name}"},"spec":{${specHead},` +
  `"selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"a"}},` +
  `"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`;

const strictError = (kind: string, version: string, problems: string) =>
  `${kind} in version "${version}" cannot be handled as a ${kind}: strict decoding error: ${problems}`;

async function createStrict(path: string, rawBody: string) {
  const res = await t.call("POST", `${path}?fieldValidation=Strict`, { rawBody });
  expect(res.status).toBe(400);
  expect(res.json.reason).toBe("BadRequest");
  return res.json.message as string;
}

/** The texts of a response's `Warning` headers, in order. */
function warningTexts(headers: Record<string, string | string[] | undefined>): string[] {
  const all = ([] as string[]).concat(headers.warning ?? []).join(", ");
  return [...all.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
}

describe("strict decoding of a built-in object: document order", () => {
  it("lists an unknown field before a later duplicate (the conformance test's body)", async () => {
    const body = deployment("d1", `"unknownField":"foo","replicas":2,"replicas":3`);
    expect(await createStrict(deployments, body)).toBe(
      strictError("Deployment", "v1", 'unknown field "spec.unknownField", duplicate field "spec.replicas"'),
    );
  });

  it("lists a duplicate before a later unknown field", async () => {
    const body = deployment("d2", `"replicas":2,"replicas":3,"unknownField":"foo"`);
    expect(await createStrict(deployments, body)).toBe(
      strictError("Deployment", "v1", 'duplicate field "spec.replicas", unknown field "spec.unknownField"'),
    );
  });

  it("interleaves them across nesting levels, map keys included", async () => {
    const body =
      `{"apiVersion":"v1","kind":"ConfigMap","zzz":1,` +
      `"metadata":{"name":"c1","labels":{"a":"1","a":"2"},"bogus":1},"data":{"k":"v"},"data":{"k":"w"}}`;
    expect(await createStrict(configMaps, body)).toBe(
      strictError(
        "ConfigMap",
        "v1",
        'unknown field "zzz", duplicate field "metadata.labels.a", unknown field "metadata.bogus", duplicate field "data"',
      ),
    );
  });

  it("reports a key repeated three times once, and a repeated unknown key only as unknown", async () => {
    const body =
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c2"},` +
      `"data":{"a":"1","a":"2","a":"3"},"bogus":1,"bogus":2}`;
    expect(await createStrict(configMaps, body)).toBe(
      strictError("ConfigMap", "v1", 'duplicate field "data.a", unknown field "bogus"'),
    );
  });

  it("does not look inside an unknown field", async () => {
    const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c3"},"bogus":{"x":1,"x":2},"data":{"a":"1","a":"2"}}`;
    expect(await createStrict(configMaps, body)).toBe(
      strictError("ConfigMap", "v1", 'unknown field "bogus", duplicate field "data.a"'),
    );
  });

  it("keeps document order for an update, and for warnings under Warn", async () => {
    const name = uniqueName("c");
    const created = await t.call("POST", configMaps, { body: { metadata: { name } } });
    expect(created.status).toBe(201);
    const rv = created.json.metadata.resourceVersion as string;
    const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}","resourceVersion":"${rv}"},"bogus":1,"data":{"a":"1","a":"2"}}`;
    const strict = await t.call("PUT", `${configMaps}/${name}?fieldValidation=Strict`, { rawBody: body });
    expect(strict.status).toBe(400);
    expect(strict.json.message).toBe(
      strictError("ConfigMap", "v1", 'unknown field "bogus", duplicate field "data.a"'),
    );
    const warned = await t.call("PUT", `${configMaps}/${name}?fieldValidation=Warn`, { rawBody: body });
    expect(warned.status).toBe(200);
    expect(warningTexts(warned.headers)).toEqual(['unknown field "bogus"', 'duplicate field "data.a"']);
    expect(warned.json.data).toEqual({ a: "2" });
  });
});

describe("strict decoding of a custom resource", () => {
  it("lists the duplicates first, then the unknown fields pruning finds", async () => {
    const body =
      `{"apiVersion":"${group}/v1","kind":"Gauge","metadata":{"name":"g1"},` +
      `"spec":{"bogus":1,"size":1,"size":2}}`;
    expect(await createStrict(`/apis/${group}/v1/namespaces/${ns}/gauges`, body)).toBe(
      strictError("Gauge", "v1", 'duplicate field "spec.size", unknown field "spec.bogus"'),
    );
  });
});
