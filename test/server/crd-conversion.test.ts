/**
 * Webhook conversion of custom resources (crd-conversion-fixtures.ts): objects written in one version
 * are read, listed, watched, patched and applied in the other through ConversionReview calls to a
 * webhook in the test process; a failing webhook is answered as kube-apiserver answers it, with
 * nothing stored and other requests unaffected.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpsWebhook } from "../support/https-webhook.js";
import { openWatch } from "../support/watch-client.js";
import {
  backendV1,
  backendV2,
  type ConversionSetup,
  convertReview,
  group,
  retryUntil,
  reviewsSince,
  setUp,
  useConversionGroup,
} from "./crd-conversion-fixtures.js";

let s: ConversionSetup;

useConversionGroup();

beforeAll(async () => {
  s = await setUp();
}, 60_000);

afterAll(async () => {
  await s.t.call("DELETE", `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/backends.${group}`);
  await s.t.call("DELETE", `/api/v1/namespaces/${s.ns}`);
  await s.wh.close();
  await s.t.close();
});

describe("conversion webhook", () => {
  it("reads in v2 an object written in v1, through one ConversionReview", async () => {
    const created = await s.t.call("POST", s.base("v1"), { body: backendV1("read-1") });
    expect(created.status).toBe(201);
    expect(created.json.spec).toEqual({ host: "db", port: 5432, tier: "gold" });
    const from = s.wh.requests.length;
    const got = await s.t.call("GET", `${s.base("v2")}/read-1`);
    expect(got.status).toBe(200);
    expect(got.json.apiVersion).toBe(`${group}/v2`);
    expect(got.json.spec).toEqual({ endpoint: "db:5432", tier: "gold" });
    expect(got.json.metadata.uid).toBe(created.json.metadata.uid);
    expect(got.json.metadata.labels).toEqual({ app: "conv" });
    const reviews = reviewsSince(s.wh, from);
    expect(reviews.length).toBeGreaterThan(0);
    expect(reviews[0]?.desiredAPIVersion).toBe(`${group}/v2`);
    expect(reviews[0]?.objects.map((o) => o.apiVersion)).toEqual([`${group}/v1`]);
    expect(typeof reviews[0]?.uid).toBe("string");
  });

  it("stores an object written in v2 in the storage version v1, and answers in v2", async () => {
    const created = await s.t.call("POST", s.base("v2"), { body: backendV2("write-2") });
    expect(created.status).toBe(201);
    expect(created.json.apiVersion).toBe(`${group}/v2`);
    expect(created.json.spec).toEqual({ endpoint: "cache:6379", tier: "gold" });
    const inV1 = await s.t.call("GET", `${s.base("v1")}/write-2`);
    expect(inV1.json.apiVersion).toBe(`${group}/v1`);
    expect(inV1.json.spec).toEqual({ host: "cache", port: 6379, tier: "gold" });
  });

  it("lists in v2 objects stored in v1", async () => {
    for (const n of ["list-a", "list-b"])
      expect((await s.t.call("POST", s.base("v1"), { body: backendV1(n, n, 80) })).status).toBe(201);
    const list = await s.t.call("GET", `${s.base("v2")}?labelSelector=app%3Dconv`);
    expect(list.status).toBe(200);
    expect(list.json.apiVersion).toBe(`${group}/v2`);
    const byName = Object.fromEntries(
      list.json.items.map((i: { metadata: { name: string }; spec: unknown; apiVersion: string }) => [
        i.metadata.name,
        [i.apiVersion, i.spec],
      ]),
    );
    expect(byName["list-a"]).toEqual([`${group}/v2`, { endpoint: "list-a:80", tier: "gold" }]);
    expect(byName["list-b"]).toEqual([`${group}/v2`, { endpoint: "list-b:80", tier: "gold" }]);
  });

  it("watches in v2 objects written in v1, each event converted", async () => {
    const start = await s.t.call("GET", s.base("v2"));
    const w = await openWatch(
      s.t,
      `${s.base("v2")}?watch=true&resourceVersion=${start.json.metadata.resourceVersion}`,
    );
    try {
      expect((await s.t.call("POST", s.base("v1"), { body: backendV1("watch-1", "w", 1) })).status).toBe(201);
      const patched = await s.t.call("PATCH", `${s.base("v1")}/watch-1`, {
        body: { spec: { port: 2 } },
        contentType: "application/merge-patch+json",
      });
      expect(patched.status).toBe(200);
      const seen = await w.until((e) => e.type === "MODIFIED" && e.object.metadata.name === "watch-1");
      const mine = seen.filter((e) => e.object.metadata.name === "watch-1");
      expect(mine.map((e) => [e.type, e.object.apiVersion, e.object.spec.endpoint])).toEqual([
        ["ADDED", `${group}/v2`, "w:1"],
        ["MODIFIED", `${group}/v2`, "w:2"],
      ]);
    } finally {
      await w.close();
    }
  });

  it("patches and applies in v2 an object stored in v1", async () => {
    expect((await s.t.call("POST", s.base("v1"), { body: backendV1("patch-1", "p", 1) })).status).toBe(201);
    const patched = await s.t.call("PATCH", `${s.base("v2")}/patch-1`, {
      body: { spec: { endpoint: "q:2" } },
      contentType: "application/merge-patch+json",
    });
    expect(patched.status).toBe(200);
    expect(patched.json.spec).toEqual({ endpoint: "q:2", tier: "gold" });
    const applied = await s.t.call("PATCH", `${s.base("v2")}/patch-1?fieldManager=conv-test&force=true`, {
      body: {
        apiVersion: `${group}/v2`,
        kind: "Backend",
        metadata: { name: "patch-1" },
        spec: { endpoint: "r:3" },
      },
      contentType: "application/apply-patch+yaml",
    });
    expect(applied.status).toBe(200);
    expect(applied.json.spec.endpoint).toBe("r:3");
    const inV1 = await s.t.call("GET", `${s.base("v1")}/patch-1`);
    expect(inV1.json.spec).toEqual({ host: "r", port: 3, tier: "gold" });
    const updated = await s.t.call("PUT", `${s.base("v2")}/patch-1`, {
      body: { ...applied.json, spec: { endpoint: "s:4" } },
    });
    expect(updated.status).toBe(200);
    expect((await s.t.call("GET", `${s.base("v1")}/patch-1`)).json.spec).toMatchObject({
      host: "s",
      port: 4,
    });
  });
});

describe("a failing conversion webhook", () => {
  const failing = async (answer: (body: unknown) => unknown, name: string) => {
    s.wh.handle("/convert", answer);
    try {
      const read = await s.t.call("GET", `${s.base("v2")}/${name}`);
      const write = await s.t.call("POST", s.base("v2"), { body: backendV2(`${name}-new`) });
      expect((await s.t.call("GET", `${s.base("v1")}/${name}-new`)).status).toBe(404);
      return { read, write };
    } finally {
      s.wh.handle("/convert", convertReview);
    }
  };
  const review = (body: unknown) =>
    (body as { request: { uid: string; objects: Record<string, unknown>[] } }).request;

  beforeAll(async () => {
    expect((await s.t.call("POST", s.base("v1"), { body: backendV1("bad") })).status).toBe(201);
  });

  const renamed = (b: unknown) => {
    const r = convertReview(b) as { response: { convertedObjects: { metadata: { name: string } }[] } };
    for (const o of r.response.convertedObjects) o.metadata.name = "renamed";
    return r;
  };
  const otherVersion = (b: unknown) => {
    const r = convertReview(b) as { response: { convertedObjects: { apiVersion: string }[] } };
    for (const o of r.response.convertedObjects) o.apiVersion = `${group}/v9`;
    return r;
  };
  const answer = (b: unknown, response: Record<string, unknown>) => ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    response: { uid: review(b).uid, ...response },
  });

  it.each([
    [
      "answers garbage",
      () => "not json",
      "failed: couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct",
    ],
    [
      "answers another uid",
      (b: unknown) => {
        const r = convertReview(b) as { response: { uid: string } };
        r.response.uid = "someone-else";
        return r;
      },
      `got "someone-else"`,
    ],
    [
      "answers an empty object",
      () => ({}),
      "failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=",
    ],
    [
      "answers Failure with a message",
      (b: unknown) => answer(b, { result: { status: "Failure", message: "cannot convert this" } }),
      "failed: cannot convert this",
    ],
    [
      "answers no objects",
      (b: unknown) => answer(b, { result: { status: "Success" }, convertedObjects: [] }),
      "returned 0 objects, expected 1",
    ],
    ["changes the name", renamed, "returned invalid object: must have the same name: "],
    [
      "answers the wrong apiVersion",
      otherVersion,
      `returned invalid object at index 0: invalid groupVersion (expected ${group}/v`,
    ],
  ])("%s: 500 on read, list and write, nothing stored", async (_what, handler, detail) => {
    const { read, write } = await failing(handler, "bad");
    // A read fails as a storage error naming the object and the conversion from its stored version.
    expect(read.status).toBe(500);
    expect(read.json.reason).toBe("InternalError");
    expect(read.json.message).toMatch(
      new RegExp(
        `^Internal error occurred: StorageError: corrupt object, Code: 7, Key: /${group}/backends/${s.ns}/bad, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=\\d+: conversion webhook for ${group}/v1, Kind=Backend `,
      ),
    );
    expect(read.json.message).toContain(detail);
    // A write fails with the webhook's error alone (a 500 without a reason), converting from v2.
    expect(write.status).toBe(500);
    expect(write.json.reason).toBeUndefined();
    expect(write.json.message).toMatch(new RegExp(`^conversion webhook for ${group}/v2, Kind=Backend `));
    expect(write.json.message).toContain(detail);
    expect((await s.t.call("GET", `${s.base("v1")}/bad-new`)).status).toBe(404);
  });

  it("keeps labels the webhook changes, refuses invalid ones", async () => {
    const labelled = (labels: Record<string, string>) => (b: unknown) => {
      const r = convertReview(b) as {
        response: { convertedObjects: { metadata: Record<string, unknown> }[] };
      };
      for (const o of r.response.convertedObjects) o.metadata = { ...o.metadata, labels, generation: 99 };
      return r;
    };
    s.wh.handle("/convert", labelled({ app: "conv", converted: "yes" }));
    try {
      const got = await s.t.call("GET", `${s.base("v2")}/bad`);
      expect(got.status).toBe(200);
      expect(got.json.metadata.labels).toEqual({ app: "conv", converted: "yes" });
      // Only labels and annotations are taken from the answer: the rest of metadata stays as stored.
      expect(got.json.metadata.generation).toBe(1);
      s.wh.handle("/convert", labelled({ "bad key": "x" }));
      const refused = await s.t.call("GET", `${s.base("v2")}/bad`);
      expect(refused.status).toBe(500);
      expect(refused.json.message).toContain(
        `conversion webhook for ${group}/v1, Kind=Backend returned invalid metadata: metadata.labels: Invalid value: "bad key": name part must consist of alphanumeric characters`,
      );
    } finally {
      s.wh.handle("/convert", convertReview);
    }
  });

  it("a webhook that refuses the connection: 500 naming the dial error", async () => {
    // A port nothing listens on: an endpoint started and closed again.
    const closed = await startHttpsWebhook();
    await closed.close();
    const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/backends.${group}`;
    const point = async (url: string) => {
      const crd = (await s.t.call("GET", crdPath)).json;
      crd.spec.conversion.webhook.clientConfig.url = url;
      expect((await s.t.call("PUT", crdPath, { body: crd })).status).toBe(200);
    };
    await point(`${closed.url}/convert`);
    try {
      // The new clientConfig reaches kube-apiserver's handlers asynchronously: retry, bounded.
      const res = await retryUntil(
        () => s.t.call("GET", `${s.base("v2")}/bad`),
        (r) => r.status === 500,
      );
      expect(res.status).toBe(500);
      const port = new URL(closed.url).port;
      expect(res.json.message).toContain(
        `conversion webhook for ${group}/v1, Kind=Backend failed: Post "${closed.url}/convert?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
      );
    } finally {
      await point(`${s.wh.url}/convert`);
      await retryUntil(
        () => s.t.call("GET", `${s.base("v2")}/bad`),
        (r) => r.status === 200,
      );
    }
  });

  it("a hanging webhook stalls only the requests that need it", async () => {
    let release: () => void = () => {};
    const hung = new Promise<void>((resolve) => {
      release = resolve;
    });
    let called: () => void = () => {};
    const calledOnce = new Promise<void>((resolve) => {
      called = resolve;
    });
    s.wh.handle("/convert", async (b) => {
      called();
      await hung;
      return convertReview(b);
    });
    try {
      const slow = s.t.call("GET", `${s.base("v2")}/bad`);
      await calledOnce;
      const fast = await s.t.call("GET", `${s.base("v1")}/bad`);
      expect(fast.status).toBe(200);
      expect((await s.t.call("GET", "/api/v1/namespaces/default")).status).toBe(200);
      const res = await slow;
      expect(res.status).toBe(500);
      expect(res.json.message).toContain("conversion webhook for");
    } finally {
      release();
      s.wh.handle("/convert", convertReview);
    }
  }, 90_000);
});

describe("storage version change", () => {
  it("ends the watches open on the old storage; a new watch spans objects stored in v1 and in v2", async () => {
    const first = await s.t.call("POST", s.base("v1"), { body: backendV1("span-1", "a", 1) });
    expect(first.status).toBe(201);
    const old = await openWatch(
      s.t,
      `${s.base("v2")}?watch=true&resourceVersion=${first.json.metadata.resourceVersion}`,
    );
    const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/backends.${group}`;
    const crd = (await s.t.call("GET", crdPath)).json;
    crd.spec.versions[0].storage = false;
    crd.spec.versions[1].storage = true;
    const switched = await s.t.call("PUT", crdPath, { body: crd });
    expect(switched.status).toBe(200);
    expect(switched.json.status.storedVersions).toEqual(["v1", "v2"]);
    try {
      await expect(old.until(() => false)).rejects.toThrow("watch ended before the expected event");
    } finally {
      await old.close();
    }
    // The new storage version reaches the handlers asynchronously on kube-apiserver: retry until a
    // new object written in v1 is converted to v2 to be stored.
    const from = s.wh.requests.length;
    let attempt = 0;
    const second = await retryUntil(
      async () => {
        const name = `span-2-${attempt++}`;
        const res = await s.t.call("POST", s.base("v1"), { body: backendV1(name, "b", 2) });
        const stored = reviewsSince(s.wh, from).some(
          (r) => r.desiredAPIVersion === `${group}/v2` && r.objects.some((o) => o.metadata.name === name),
        );
        return { res, name, stored };
      },
      (r) => r.res.status === 201 && r.stored,
    );
    expect(second.stored).toBe(true);
    const w = await openWatch(s.t, `${s.base("v1")}?watch=true`);
    try {
      const initial = await w.until((e) => e.object.metadata.name === second.name);
      const shown = Object.fromEntries(
        initial
          .filter((e) => ["span-1", second.name].includes(e.object.metadata.name))
          .map((e) => [e.object.metadata.name, [e.type, e.object.apiVersion, e.object.spec.host]]),
      );
      expect(shown).toEqual({
        "span-1": ["ADDED", `${group}/v1`, "a"],
        [second.name]: ["ADDED", `${group}/v1`, "b"],
      });
      // span-1, stored in v1, is rewritten in v2 (stored as v2 now) and seen in v1.
      const patched = await s.t.call("PATCH", `${s.base("v2")}/span-1`, {
        body: { spec: { endpoint: "c:3" } },
        contentType: "application/merge-patch+json",
      });
      expect(patched.status).toBe(200);
      const next = await w.until((e) => e.type === "MODIFIED" && e.object.metadata.name === "span-1");
      expect(next.at(-1)?.object.spec).toEqual({ host: "c", port: 3, tier: "gold" });
    } finally {
      await w.close();
    }
    const list = await s.t.call("GET", s.base("v2"));
    const names = list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(names).toEqual(expect.arrayContaining(["span-1", second.name]));
    expect(list.json.items.every((i: { apiVersion: string }) => i.apiVersion === `${group}/v2`)).toBe(true);
  });
});
