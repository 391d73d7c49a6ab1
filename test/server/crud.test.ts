import { describe, expect, it } from "vitest";
import { useNamespaceSuite } from "../support/namespace-suite.js";
import type { TestTarget } from "../support/target.js";

let t: TestTarget;
let ns: string;
const cm = (
  name: string,
  data: Record<string, string> = { a: "1" },
  extra: Record<string, unknown> = {},
) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, ...extra },
  data,
});

useNamespaceSuite("crud", (target, name) => {
  t = target;
  ns = name;
});

const base = () => `/api/v1/namespaces/${ns}/configmaps`;

describe("create and get", () => {
  it("creates with server-set metadata and reads it back", async () => {
    const res = await t.call("POST", base(), { body: cm("c1") });
    expect(res.status).toBe(201);
    const m = res.json.metadata;
    expect(m.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(m.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(m.resourceVersion).toMatch(/^\d+$/);
    expect(m.namespace).toBe(ns);
    expect(res.text.endsWith("\n")).toBe(true);
    const got = await t.call("GET", `${base()}/c1`);
    expect(got.status).toBe(200);
    expect(got.json.metadata.uid).toBe(m.uid);
    expect(got.json.data).toEqual({ a: "1" });
  });

  it("answers a duplicate with the AlreadyExists Status", async () => {
    await t.call("POST", base(), { body: cm("dup") });
    const res = await t.call("POST", base(), { body: cm("dup") });
    expect(res.status).toBe(409);
    expect(res.json).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'configmaps "dup" already exists',
      reason: "AlreadyExists",
      details: { name: "dup", kind: "configmaps" },
      code: 409,
    });
  });

  it("answers a missing object with the NotFound Status, naming the group", async () => {
    const res = await t.call("GET", `${base()}/nope`);
    expect(res.status).toBe(404);
    expect(res.json.message).toBe('configmaps "nope" not found');
    expect(res.json.details).toEqual({ name: "nope", kind: "configmaps" });
    const dep = await t.call("GET", `/apis/apps/v1/namespaces/${ns}/deployments/nope`);
    expect(dep.json.message).toBe('deployments.apps "nope" not found');
    expect(dep.json.details).toEqual({ name: "nope", group: "apps", kind: "deployments" });
  });

  it("generates names from generateName", async () => {
    const res = await t.call("POST", base(), {
      body: { apiVersion: "v1", kind: "ConfigMap", metadata: { generateName: "gen-" } },
    });
    expect(res.status).toBe(201);
    expect(res.json.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it("rejects invalid names with 422 and a cause", async () => {
    const res = await t.call("POST", base(), { body: cm("Bad_Name") });
    expect(res.status).toBe(422);
    expect(res.json.reason).toBe("Invalid");
    expect(res.json.message).toMatch(
      /^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": /,
    );
    expect(res.json.details.causes[0]).toMatchObject({ reason: "FieldValueInvalid", field: "metadata.name" });
  });

  it("rejects invalid label keys and values with 422", async () => {
    const res = await t.call("POST", base(), { body: cm("badlabel", { a: "1" }, { labels: { ok: "-9" } }) });
    expect(res.status).toBe(422);
    expect(res.json.message).toContain(
      'metadata.labels: Invalid value: "-9": a valid label must be an empty string',
    );
    const key = await t.call("POST", base(), {
      body: cm("badkey", { a: "1" }, { labels: { "bad key": "x" } }),
    });
    expect(key.status).toBe(422);
    expect(key.json.details.causes[0].field).toBe("metadata.labels");
  });

  it("dry-run create returns the object without persisting it", async () => {
    const res = await t.call("POST", `${base()}?dryRun=All`, { body: cm("dry") });
    expect(res.status).toBe(201);
    expect(res.json.metadata.uid).toBeTruthy();
    expect(res.json.metadata.resourceVersion).toBeUndefined();
    expect((await t.call("GET", `${base()}/dry`)).status).toBe(404);
    const bad = await t.call("POST", `${base()}?dryRun=Yes`, { body: cm("dry2") });
    expect(bad.status).toBe(422);
  });

  it("creating into a missing namespace is 404 for the namespace", async () => {
    const res = await t.call("POST", "/api/v1/namespaces/does-not-exist-xyz/configmaps", { body: cm("x") });
    expect(res.status).toBe(404);
    expect(res.json.message).toBe('namespaces "does-not-exist-xyz" not found');
  });
});

describe("update and patch", () => {
  it("replaces with the current resourceVersion and rejects a stale one with Conflict", async () => {
    const created = (await t.call("POST", base(), { body: cm("u1") })).json;
    const updated = await t.call("PUT", `${base()}/u1`, { body: { ...created, data: { a: "2" } } });
    expect(updated.status).toBe(200);
    expect(Number(updated.json.metadata.resourceVersion)).toBeGreaterThan(
      Number(created.metadata.resourceVersion),
    );
    const stale = await t.call("PUT", `${base()}/u1`, { body: { ...created, data: { a: "3" } } });
    expect(stale.status).toBe(409);
    expect(stale.json.reason).toBe("Conflict");
    expect(stale.json.message).toBe(
      'Operation cannot be fulfilled on configmaps "u1": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it("rejects a name that differs from the URL with 400", async () => {
    const created = (await t.call("POST", base(), { body: cm("u2") })).json;
    const res = await t.call("PUT", `${base()}/u2`, {
      body: { ...created, metadata: { ...created.metadata, name: "other" } },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe("the name of the object (other) does not match the name on the URL (u2)");
  });

  it("a no-op update keeps the resourceVersion", async () => {
    const created = (await t.call("POST", base(), { body: cm("u3") })).json;
    const same = await t.call("PUT", `${base()}/u3`, { body: created });
    expect(same.status).toBe(200);
    expect(same.json.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it("applies JSON patch, merge patch and strategic merge patch", async () => {
    await t.call("POST", base(), { body: cm("p1", { a: "1", b: "2" }) });
    const jp = await t.call("PATCH", `${base()}/p1`, {
      body: [{ op: "replace", path: "/data/a", value: "x" }],
      contentType: "application/json-patch+json",
    });
    expect(jp.status).toBe(200);
    expect(jp.json.data).toEqual({ a: "x", b: "2" });
    const mp = await t.call("PATCH", `${base()}/p1`, {
      body: { data: { b: null, c: "3" } },
      contentType: "application/merge-patch+json",
    });
    expect(mp.json.data).toEqual({ a: "x", c: "3" });
    const sp = await t.call("PATCH", `${base()}/p1`, {
      body: { metadata: { labels: { l: "v" } } },
      contentType: "application/strategic-merge-patch+json",
    });
    expect(sp.json.metadata.labels).toEqual({ l: "v" });
    const failedTest = await t.call("PATCH", `${base()}/p1`, {
      body: [{ op: "test", path: "/data/a", value: "nope" }],
      contentType: "application/json-patch+json",
    });
    expect(failedTest.status).toBe(422);
  });

  it("strategic merge patch merges containers by name and honours $patch: delete", async () => {
    const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const containers = [
      { name: "a", image: "img-a" },
      { name: "b", image: "img-b" },
    ];
    const dep = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "smp" },
      spec: {
        selector: { matchLabels: { app: "smp" } },
        template: { metadata: { labels: { app: "smp" } }, spec: { containers } },
      },
    };
    expect((await t.call("POST", path, { body: dep })).status).toBe(201);
    const images = (res: {
      json: { spec: { template: { spec: { containers: { name: string; image: string }[] } } } };
    }) => res.json.spec.template.spec.containers.map((c) => [c.name, c.image]);
    const res = await t.call("PATCH", `${path}/smp`, {
      body: {
        spec: {
          template: {
            spec: {
              containers: [
                { name: "b", image: "img-b2" },
                { name: "a", $patch: "delete" },
              ],
            },
          },
        },
      },
      contentType: "application/strategic-merge-patch+json",
    });
    expect(res.status).toBe(200);
    expect(images(res)).toEqual([["b", "img-b2"]]);
    const added = await t.call("PATCH", `${path}/smp`, {
      body: { spec: { template: { spec: { containers: [{ name: "c", image: "img-c" }] } } } },
      contentType: "application/strategic-merge-patch+json",
    });
    // Upstream's order: new patch items go before the live items the patch does not name.
    expect(images(added)).toEqual([
      ["c", "img-c"],
      ["b", "img-b2"],
    ]);
    const merge = await t.call("PATCH", `${path}/smp`, {
      body: { spec: { template: { spec: { containers: [{ name: "d", image: "img-d" }] } } } },
      contentType: "application/merge-patch+json",
    });
    expect(images(merge)).toEqual([["d", "img-d"]]);
  });

  it("strategic merge patch orders keyed lists as upstream does", async () => {
    const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const c = (name: string, image = "i") => ({ name, image });
    const dep = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "order" },
      spec: {
        selector: { matchLabels: { app: "order" } },
        template: { metadata: { labels: { app: "order" } }, spec: { containers: [c("a"), c("b"), c("c")] } },
      },
    };
    expect((await t.call("POST", path, { body: dep })).status).toBe(201);
    const step = async (containers: unknown[]) => {
      const res = await t.call("PATCH", `${path}/order`, {
        body: { spec: { template: { spec: { containers } } } },
        contentType: "application/strategic-merge-patch+json",
      });
      return res.json.spec.template.spec.containers.map(
        (x: { name: string; image: string }) => `${x.name}:${x.image}`,
      );
    };
    expect(await step([c("x")])).toEqual(["x:i", "a:i", "b:i", "c:i"]);
    expect(await step([c("b", "j"), c("y")])).toEqual(["x:i", "a:i", "b:j", "y:i", "c:i"]);
    expect(await step([c("c", "k"), c("a", "k")])).toEqual(["x:i", "b:j", "y:i", "c:k", "a:k"]);
  });

  it("patching a missing object is 404; an unknown patch type is 415", async () => {
    expect(
      (await t.call("PATCH", `${base()}/missing`, { body: {}, contentType: "application/merge-patch+json" }))
        .status,
    ).toBe(404);
    await t.call("POST", base(), { body: cm("p2") });
    const res = await t.call("PATCH", `${base()}/p2`, { body: {}, contentType: "text/plain" });
    expect(res.status).toBe(415);
    expect(res.json.reason).toBe("UnsupportedMediaType");
  });

  it("tracks generation for spec changes of a Deployment, not for metadata", async () => {
    const dep = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d1" },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: "d1" } },
        template: {
          metadata: { labels: { app: "d1" } },
          spec: { containers: [{ name: "c", image: "nginx" }] },
        },
      },
    };
    const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const created = await t.call("POST", path, { body: dep });
    expect(created.status).toBe(201);
    expect(created.json.metadata.generation).toBe(1);
    // Built-in defaulting, as the apiserver does on decode.
    expect(created.json.spec).toMatchObject({
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" } },
    });
    expect(created.json.spec.template.spec).toMatchObject({
      restartPolicy: "Always",
      dnsPolicy: "ClusterFirst",
    });
    expect(created.json.spec.template.spec.containers[0]).toMatchObject({
      imagePullPolicy: "Always",
      terminationMessagePath: "/dev/termination-log",
    });
    const labelled = await t.call("PATCH", `${path}/d1`, {
      body: { metadata: { labels: { x: "y" } } },
      contentType: "application/merge-patch+json",
    });
    expect(labelled.json.metadata.generation).toBe(1);
    const scaled = await t.call("PATCH", `${path}/d1`, {
      body: { spec: { replicas: 3 } },
      contentType: "application/merge-patch+json",
    });
    expect(scaled.json.metadata.generation).toBe(2);
  });
});

describe("delete", () => {
  it("deletes and answers with a Success Status", async () => {
    const created = (await t.call("POST", base(), { body: cm("d1") })).json;
    const res = await t.call("DELETE", `${base()}/d1`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      kind: "Status",
      status: "Success",
      details: { name: "d1", kind: "configmaps", uid: created.metadata.uid },
    });
    expect((await t.call("GET", `${base()}/d1`)).status).toBe(404);
  });

  it("checks preconditions from the DeleteOptions body", async () => {
    await t.call("POST", base(), { body: cm("d2") });
    const res = await t.call("DELETE", `${base()}/d2`, {
      body: {
        kind: "DeleteOptions",
        apiVersion: "v1",
        preconditions: { uid: "00000000-0000-0000-0000-000000000000" },
      },
    });
    expect(res.status).toBe(409);
    expect(res.json.message).toMatch(
      /^Operation cannot be fulfilled on ConfigMap "d2": the UID in the precondition \(00000000-0000-0000-0000-000000000000\) does not match the UID in record \(/,
    );
    expect(res.json.details).toEqual({ name: "d2", kind: "ConfigMap" });
    expect((await t.call("GET", `${base()}/d2`)).status).toBe(200);
  });

  it("with finalizers sets deletionTimestamp and removes the object when the last finalizer goes", async () => {
    await t.call("POST", base(), { body: cm("f1", { a: "1" }, { finalizers: ["example.com/hold"] }) });
    const del = await t.call("DELETE", `${base()}/f1`);
    expect(del.status).toBe(200);
    expect(del.json.metadata.deletionTimestamp).toBeTruthy();
    expect(del.json.metadata.deletionGracePeriodSeconds).toBe(0);
    const still = await t.call("GET", `${base()}/f1`);
    expect(still.status).toBe(200);
    const addFinalizer = await t.call("PATCH", `${base()}/f1`, {
      body: { metadata: { finalizers: ["example.com/hold", "example.com/more"] } },
      contentType: "application/merge-patch+json",
    });
    expect(addFinalizer.status).toBe(422);
    const release = await t.call("PATCH", `${base()}/f1`, {
      body: { metadata: { finalizers: null } },
      contentType: "application/merge-patch+json",
    });
    expect(release.status).toBe(200);
    expect((await t.call("GET", `${base()}/f1`)).status).toBe(404);
  });

  it("deletes a collection by label selector", async () => {
    for (const n of ["k1", "k2", "k3"])
      await t.call("POST", base(), {
        body: cm(n, { a: "1" }, { labels: { batch: n === "k3" ? "keep" : "drop" } }),
      });
    const res = await t.call("DELETE", `${base()}?labelSelector=batch%3Ddrop`);
    expect(res.status).toBe(200);
    const left = await t.call("GET", `${base()}?labelSelector=batch`);
    expect(left.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(["k3"]);
  });
});

describe("bad input", () => {
  it("malformed JSON is 400 and nothing is written", async () => {
    const before = await t.call("GET", base());
    const res = await t.call("POST", base(), {
      rawBody: '{"apiVersion":"v1",',
      contentType: "application/json",
    });
    expect(res.status).toBe(400);
    expect(res.json.kind).toBe("Status");
    const after = await t.call("GET", base());
    expect(after.json.items.length).toBe(before.json.items.length);
  });

  it("a kind that does not match the endpoint is 400", async () => {
    const res = await t.call("POST", base(), {
      body: { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "x" } },
    });
    expect(res.status).toBe(400);
  });

  it("a body over 3 MiB is 413 and the server keeps serving", async () => {
    const res = await t.call("POST", base(), { body: cm("huge", { a: "x".repeat(3 * 1024 * 1024 + 10) }) });
    expect(res.status).toBe(413);
    expect((await t.call("GET", base())).status).toBe(200);
  });

  it("an unknown resource is 404", async () => {
    const res = await t.call("GET", `/api/v1/namespaces/${ns}/nothings`);
    expect(res.status).toBe(404);
    expect(res.json.reason).toBe("NotFound");
  });
});
