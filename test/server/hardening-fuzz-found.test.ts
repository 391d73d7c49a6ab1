/**
 * Hardening: the bugs the fuzz test (hardening-fuzz.test.ts) found, each pinned by a plain test.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
const ns = uniqueName("hard-found");

beforeAll(async () => {
  t = await startTarget();
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
});
afterAll(async () => {
  await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t?.close();
});

it("refuses Secret data that is not base64 with 400 (it used to be stored, then broke protobuf lists)", async () => {
  const res = await t.call("POST", `/api/v1/namespaces/${ns}/secrets`, {
    body: { metadata: { name: "bad" }, data: { k: "b" } },
  });
  expect([res.status, res.json.message]).toEqual([
    400,
    'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0',
  ]);
  const binary = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, {
    body: { metadata: { name: "bad" }, binaryData: { k: "ab=c" } },
  });
  expect(binary.status).toBe(400);
});

it("merges stringData into data and defaults the type", async () => {
  const res = await t.call("POST", `/api/v1/namespaces/${ns}/secrets`, {
    body: { metadata: { name: "sd" }, data: { a: "eA==" }, stringData: { b: "y" } },
  });
  expect([res.status, res.json.data, res.json.stringData, res.json.type]).toEqual([
    201,
    { a: "eA==", b: "eQ==" },
    undefined,
    "Opaque",
  ]);
});

it("sends warnings about non-ASCII field names as UTF-8 (it used to be a 500)", async () => {
  const res = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps?fieldValidation=Warn`, {
    rawBody: Buffer.from('{"metadata":{"name":"w"},"\u00e9t\u00e9":1}', "utf8"),
  });
  expect(res.status).toBe(201);
  const warning = Buffer.from(String(res.headers.warning), "latin1").toString("utf8");
  expect(warning).toBe('299 - "unknown field \\"\u00e9t\u00e9\\""');
});

it("refuses YAML map keys that are collections with 400 (they used to be stringified, with a process warning)", async () => {
  const res = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, {
    rawBody: "metadata: {name: y16}\ndata: {? [a, b] : c}\n",
    contentType: "application/yaml",
  });
  expect(res.status).toBe(400);
});
