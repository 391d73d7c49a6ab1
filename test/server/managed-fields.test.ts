import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;
const base = () => `/api/v1/namespaces/${ns}/configmaps`;
type Entry = {
  manager: string;
  operation: string;
  apiVersion: string;
  fieldsV1: unknown;
  time: string;
  fieldsType: string;
};
const entries = (obj: { metadata: { managedFields?: Entry[] } }) => obj.metadata.managedFields ?? [];
const byManager = (obj: { metadata: { managedFields?: Entry[] } }, m: string) =>
  entries(obj).find((e) => e.manager === m);
const merge = "application/merge-patch+json";

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("mf");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("managedFields for Update operations", () => {
  it("a create records the manager from fieldManager with what it set", async () => {
    const res = await t.call("POST", `${base()}?fieldManager=alice`, {
      body: { metadata: { name: "m1", labels: { team: "a" } }, data: { a: "1" } },
    });
    const e = byManager(res.json, "alice");
    expect(e).toMatchObject({
      manager: "alice",
      operation: "Update",
      apiVersion: "v1",
      fieldsType: "FieldsV1",
    });
    expect(e?.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(e?.fieldsV1).toEqual({
      "f:data": { ".": {}, "f:a": {} },
      "f:metadata": { "f:labels": { ".": {}, "f:team": {} } },
    });
  });

  it("without fieldManager the User-Agent up to its first slash names the manager", async () => {
    const res = await t.call("POST", base(), {
      body: { metadata: { name: "m2" }, data: { a: "1" } },
      headers: { "user-agent": "mytool/1.2.3 (linux)" },
    });
    expect(entries(res.json).map((e) => e.manager)).toEqual(["mytool"]);
  });

  it("a second manager takes the fields it changes and owns what it adds", async () => {
    await t.call("PATCH", `${base()}/m1?fieldManager=bob`, {
      body: { data: { a: "2", b: "1" } },
      contentType: merge,
    });
    const obj = (await t.call("GET", `${base()}/m1`)).json;
    // alice still owns the data map she created (now without children: a plain leaf), and her label.
    expect(byManager(obj, "alice")?.fieldsV1).toEqual({
      "f:data": {},
      "f:metadata": { "f:labels": { ".": {}, "f:team": {} } },
    });
    expect(byManager(obj, "bob")?.fieldsV1).toEqual({ "f:data": { "f:a": {}, "f:b": {} } });
  });

  it("list items of map lists are keyed (k:) and marked as owned themselves", async () => {
    const dep = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "md" },
      spec: {
        selector: { matchLabels: { app: "md" } },
        template: {
          metadata: { labels: { app: "md" } },
          spec: { containers: [{ name: "web", image: "nginx" }] },
        },
      },
    };
    const res = await t.call("POST", `/apis/apps/v1/namespaces/${ns}/deployments?fieldManager=deployer`, {
      body: dep,
    });
    // biome-ignore lint/suspicious/noExplicitAny: walking a fieldsV1 tree.
    const fields = byManager(res.json, "deployer")?.fieldsV1 as any;
    const podSpec = fields["f:spec"]["f:template"]["f:spec"];
    // The creating manager owns the fields the server defaulted too (defaulting precedes field tracking).
    expect(podSpec["f:containers"]).toEqual({
      'k:{"name":"web"}': {
        ".": {},
        "f:image": {},
        "f:imagePullPolicy": {},
        "f:name": {},
        "f:resources": {},
        "f:terminationMessagePath": {},
        "f:terminationMessagePolicy": {},
      },
    });
    expect(Object.keys(fields["f:spec"]).sort()).toEqual([
      "f:progressDeadlineSeconds",
      "f:replicas",
      "f:revisionHistoryLimit",
      "f:selector",
      "f:strategy",
      "f:template",
    ]);
    expect(byManager(res.json, "deployer")?.apiVersion).toBe("apps/v1");
    // Status belongs to the status subresource: the main resource's manager does not own it.
    expect(fields["f:status"]).toBeUndefined();
  });

  it("[] and [{}] both wipe ownership; updates stay untracked until an apply", async () => {
    await t.call("POST", `${base()}?fieldManager=alice`, {
      body: { metadata: { name: "w1" }, data: { a: "1" } },
    });
    const kept = await t.call("PUT", `${base()}/w1?fieldManager=alice`, {
      body: { ...(await t.call("GET", `${base()}/w1`)).json, data: { a: "1" } },
    });
    expect(entries(kept.json).map((e) => e.manager)).toEqual(["alice"]);
    const wiped = await t.call("PATCH", `${base()}/w1`, {
      body: { metadata: { managedFields: [] } },
      contentType: merge,
    });
    expect(wiped.status).toBe(200);
    expect(entries(wiped.json)).toEqual([]);
    const untracked = await t.call("PATCH", `${base()}/w1?fieldManager=bob`, {
      body: { data: { b: "1" } },
      contentType: merge,
    });
    expect(entries(untracked.json)).toEqual([]);
    const applied = await t.call("PATCH", `${base()}/w1?fieldManager=carol`, {
      body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "w1" }, data: { c: "1" } },
      contentType: "application/apply-patch+yaml",
    });
    expect(entries(applied.json).map((e) => [e.manager, e.operation])).toEqual([
      ["carol", "Apply"],
      ["before-first-apply", "Update"],
    ]);
    await t.call("POST", `${base()}?fieldManager=alice`, {
      body: { metadata: { name: "w2" }, data: { a: "1" } },
    });
    const wiped2 = await t.call("PATCH", `${base()}/w2`, {
      body: { metadata: { managedFields: [{}] } },
      contentType: merge,
    });
    expect(entries(wiped2.json)).toEqual([]);
  });

  it("keeps at most 10 Update managers, folding the oldest into ancient-changes", async () => {
    await t.call("POST", `${base()}?fieldManager=m-0`, {
      body: { metadata: { name: "many" }, data: { k0: "v" } },
    });
    for (let i = 1; i <= 11; i++)
      await t.call("PATCH", `${base()}/many?fieldManager=m-${i}`, {
        body: { data: { [`k${i}`]: "v" } },
        contentType: merge,
      });
    const list = entries((await t.call("GET", `${base()}/many`)).json);
    expect(list.length).toBe(10);
    expect(list.map((e) => e.manager)).toContain("ancient-changes");
    expect(list.map((e) => e.manager)).toContain("m-11");
  });

  it("rejects a fieldManager over 128 characters", async () => {
    const res = await t.call("POST", `${base()}?fieldManager=${"x".repeat(129)}`, {
      body: { metadata: { name: "long" } },
    });
    expect(res.status).toBe(422);
  });
});
