/**
 * Hardening, part 2: limits, each at kube-apiserver's value and answer. Request bodies of 3 MiB
 * (413), ConfigMap/Secret data of 1 MiB (422 "Too long"), nesting depth of JSON, YAML and patches
 * (400, never a stack overflow), JSON patches of at most 10000 operations (413) whose copies may not
 * grow the object without bound (422), a watch timeout beyond setTimeout's range, deduplicated
 * warnings, and YAML that is not parsed in quadratic time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, targetKind, uniqueName } from "../support/target.js";
import { openWatch } from "../support/watch-client.js";

let t: TestTarget;
const ns = uniqueName("hard-lim");
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const MiB = 1024 * 1024;

beforeAll(async () => {
  t = await startTarget();
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  await t.call("POST", cms, { body: { metadata: { name: "target" }, data: { a: "1" } } });
});
afterAll(async () => {
  await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t?.close();
});

const deep = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;

describe("sizes", () => {
  it("refuses a request body over 3 MiB with 413", async () => {
    const res = await t.call("POST", cms, {
      body: { metadata: { name: "big" }, data: { a: "x".repeat(3 * MiB) } },
    });
    expect([res.status, res.json.reason, res.json.message]).toEqual([
      413,
      "RequestEntityTooLarge",
      "Request entity too large: limit is 3145728",
    ]);
  });

  it("refuses ConfigMap and Secret data over 1 MiB with 422 Too long", async () => {
    const cm = await t.call("POST", cms, {
      body: { metadata: { name: "big-cm" }, data: { a: "x".repeat(MiB + 1) } },
    });
    expect([cm.status, cm.json.details.causes]).toEqual([
      422,
      [{ reason: "FieldValueTooLong", message: "Too long: may not be more than 1048576 bytes", field: "[]" }],
    ]);
    const secret = await t.call("POST", `/api/v1/namespaces/${ns}/secrets`, {
      body: { metadata: { name: "big-secret" }, stringData: { a: "x".repeat(MiB + 1) } },
    });
    expect([secret.status, secret.json.details.causes[0].field]).toEqual([422, "data"]);
  });

  // Reason for reference-only: the test etcd's request limit differs from etcd's default.
  it.runIf(targetKind === "reference")(
    "refuses to store an object over 1.5 MiB with 413 (reference server)",
    async () => {
      const res = await t.call("POST", `/apis/apps/v1/namespaces/${ns}/controllerrevisions`, {
        body: { metadata: { name: "big" }, revision: 1, data: { a: "x".repeat(2 * MiB) } },
      });
      expect([res.status, res.json.message]).toEqual([
        413,
        "Request entity too large: etcdserver: request is too large",
      ]);
    },
  );
});

describe("nesting depth", () => {
  it("refuses deeply nested JSON, YAML and patches with 400", async () => {
    const json = await t.call("POST", `/apis/apps/v1/namespaces/${ns}/controllerrevisions`, {
      rawBody: `{"metadata":{"name":"deep"},"revision":1,"data":${deep(100_000)}}`,
    });
    expect(json.status).toBe(400);
    const yaml = await t.call("POST", cms, {
      rawBody: `metadata:\n  name: deep-yaml\ndata: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n`,
      contentType: "application/yaml",
    });
    expect(yaml.status).toBe(400);
    const patch = await t.call("PATCH", `${cms}/target`, {
      rawBody: `{"metadata":{"annotations":${deep(50_000)}}}`,
      contentType: "application/merge-patch+json",
    });
    expect(patch.status).toBe(400);
    expect((await t.call("GET", `${cms}/target`)).status).toBe(200);
  });

  it("accepts ordinary nesting", async () => {
    const res = await t.call("POST", `/apis/apps/v1/namespaces/${ns}/controllerrevisions`, {
      rawBody: `{"metadata":{"name":"nested"},"revision":1,"data":${deep(100)}}`,
    });
    expect(res.status).toBe(201);
  });
});

describe("JSON patch", () => {
  it("refuses more than 10000 operations with 413", async () => {
    const ops = Array.from({ length: 10_001 }, () => ({
      op: "test",
      path: "/metadata/name",
      value: "target",
    }));
    const res = await t.call("PATCH", `${cms}/target`, {
      body: ops,
      contentType: "application/json-patch+json",
    });
    expect([res.status, res.json.message]).toEqual([
      413,
      "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001",
    ]);
  });

  it("refuses copies that would grow the object without bound", async () => {
    const ops = [
      { op: "add", path: "/data", value: { a: "x".repeat(200_000) } },
      ...Array.from({ length: 20 }, (_, i) => ({ op: "copy", from: "/data", path: `/data/c${i}` })),
    ];
    const res = await t.call("PATCH", `${cms}/target`, {
      body: ops,
      contentType: "application/json-patch+json",
    });
    expect([res.status, res.json.reason]).toEqual([422, "Invalid"]);
    expect((await t.call("GET", `${cms}/target`)).json.data).toEqual({ a: "1" });
  });
});

describe("watch timeout", () => {
  it("keeps a watch with timeoutSeconds beyond setTimeout's range open", async () => {
    const list = await t.call("GET", cms);
    const w = await openWatch(
      t,
      `${cms}?watch=1&timeoutSeconds=2147484&resourceVersion=${list.json.metadata.resourceVersion}`,
    );
    expect(w.status).toBe(200);
    await t.call("POST", cms, { body: { metadata: { name: "after-watch" } } });
    const e = await w.next();
    expect([e?.type, e?.object.metadata.name]).toEqual(["ADDED", "after-watch"]);
    await w.close();
  });
});

describe("warnings and YAML", () => {
  it("sends at most 100 distinct warnings", async () => {
    const unknown = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`unknown${i}`, 1]));
    const res = await t.call("POST", cms, { body: { metadata: { name: "warned" }, ...unknown } });
    expect(res.status).toBe(201);
    const header = res.headers.warning;
    const text = Array.isArray(header) ? header.join(", ") : String(header);
    const count = text.split("299 - ").length - 1;
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(100);
  });

  it("applies a 40000-key ConfigMap in YAML", { timeout: 60_000 }, async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => `  k${i}: v`);
    const yaml = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: many-keys\ndata:\n${lines.join("\n")}\n`;
    const res = await t.call("PATCH", `${cms}/many-keys?fieldManager=yaml-test`, {
      rawBody: yaml,
      contentType: "application/apply-patch+yaml",
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.json.data)).toHaveLength(40_000);
  });

  // Reason for reference-only: upstream's YAML decoding of apply bodies words duplicates its own way.
  it.runIf(targetKind === "reference")(
    "still refuses duplicate keys in YAML (reference server)",
    async () => {
      const res = await t.call("POST", cms, {
        rawBody: "metadata:\n  name: dup\ndata:\n  a: x\n  a: y\n",
        contentType: "application/yaml",
      });
      expect(res.status).toBe(400);
    },
  );
});
