/**
 * Admission webhooks as kube-apiserver calls them: ValidatingWebhookConfiguration and
 * MutatingWebhookConfiguration by `url`, AdmissionReview v1 requests, rejections, JSONPatch
 * answers, warnings, the order mutating → validation → validating, subresources and DELETE.
 * Webhooks are served from this process (test/support/https-webhook.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allow, deny, patch, reviewsAt, WebhookSuite, webhookFor } from "../support/admission-webhooks.js";
import type { HttpsWebhook } from "../support/https-webhook.js";
import type { TestTarget } from "../support/target.js";

let s: WebhookSuite;
let t: TestTarget;
let hook: HttpsWebhook;

beforeAll(async () => {
  s = await WebhookSuite.start();
  ({ t, hook } = s);
});
afterAll(() => s.close());

const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  body: { metadata: { name }, data: { a: "1" }, ...extra },
});

describe("validating admission webhooks", () => {
  it("a webhook that denies a create rejects it with upstream's message and code, and nothing is stored", async () => {
    const ns = await s.namespace("vwh-deny");
    hook.handle(`/deny-${ns}`, (review) => deny(review, { message: "no configmaps here", code: 403 }));
    await s.install("validating", ns, ns, [webhookFor(hook, "deny.kubesdk.test", `/deny-${ns}`, ns)]);
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, cm("refused"));
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(
      'admission webhook "deny.kubesdk.test" denied the request: no configmaps here',
    );
    expect(res.json.code).toBe(403);
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/configmaps/refused`)).status).toBe(404);
  });

  it("a denial keeps the webhook's code and reason; one without a code is 400, one without a message says so", async () => {
    const ns = await s.namespace("vwh-code");
    hook.handle(`/code-${ns}`, (review) => {
      const name = (review as { request: { name: string } }).request.name;
      return name === "bare"
        ? deny(review, {})
        : deny(review, { message: "too many", reason: "TooManyRequests", code: 429 });
    });
    await s.install("validating", ns, ns, [webhookFor(hook, "code.kubesdk.test", `/code-${ns}`, ns)]);
    const coded = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, cm("coded"));
    expect(coded.status).toBe(429);
    expect(coded.json.reason).toBe("TooManyRequests");
    expect(coded.json.message).toBe('admission webhook "code.kubesdk.test" denied the request: too many');
    const bare = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, cm("bare"));
    expect(bare.status).toBe(400);
    expect(bare.json).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'admission webhook "code.kubesdk.test" denied the request without explanation',
      code: 400,
    });
  });

  it("the AdmissionReview request carries the request's fields, and warnings come back as Warning headers", async () => {
    const ns = await s.namespace("vwh-fields");
    hook.handle(`/fields-${ns}`, (review) => allow(review, { warnings: ["checked by the webhook"] }));
    await s.install("validating", ns, ns, [webhookFor(hook, "fields.kubesdk.test", `/fields-${ns}`, ns)]);
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, cm("seen"));
    expect(res.status).toBe(201);
    expect(res.headers.warning).toBe('299 - "checked by the webhook"');
    const [request] = reviewsAt(hook, `/fields-${ns}`);
    expect(request?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(request).toMatchObject({
      kind: { group: "", version: "v1", kind: "ConfigMap" },
      resource: { group: "", version: "v1", resource: "configmaps" },
      requestKind: { group: "", version: "v1", kind: "ConfigMap" },
      requestResource: { group: "", version: "v1", resource: "configmaps" },
      name: "seen",
      namespace: ns,
      operation: "CREATE",
      oldObject: null,
      dryRun: false,
      options: { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1" },
    });
    expect(request?.subResource).toBeUndefined();
    expect(typeof request?.userInfo?.username).toBe("string");
    expect(request?.object).toMatchObject({ apiVersion: "v1", kind: "ConfigMap", data: { a: "1" } });
    expect(request?.object.metadata).toMatchObject({ name: "seen", namespace: ns });
    // A generated name is in the request validating webhooks see.
    const gen = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, {
      body: { metadata: { generateName: "gen-" } },
    });
    expect(gen.status).toBe(201);
    expect(reviewsAt(hook, `/fields-${ns}`)[1]?.name).toBe(gen.json.metadata.name);
  });

  it("validating webhooks are called at once: each is called even when another denies, and its warnings come back", async () => {
    const ns = await s.namespace("vwh-parallel");
    // The first answers only once the second was called: called one after the other, it would time out.
    let secondCalled: () => void = () => undefined;
    const second = new Promise<void>((resolve) => {
      secondCalled = resolve;
    });
    hook.handle(`/first-${ns}`, async (review) => {
      await second;
      return deny(review, { message: "first says no", code: 403 });
    });
    hook.handle(`/second-${ns}`, (review) => {
      secondCalled();
      return allow(review, { warnings: ["second was here"] });
    });
    await s.install("validating", ns, ns, [
      webhookFor(hook, "first.kubesdk.test", `/first-${ns}`, ns, { timeoutSeconds: 5 }),
      webhookFor(hook, "second.kubesdk.test", `/second-${ns}`, ns),
    ]);
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, cm("both"));
    expect(res.status).toBe(403);
    expect(res.json.message).toBe('admission webhook "first.kubesdk.test" denied the request: first says no');
    // Warnings come back on a refusal too.
    expect(res.headers.warning).toBe('299 - "second was here"');
    expect(reviewsAt(hook, `/second-${ns}`)).toHaveLength(1);
  });

  it("UPDATE sends the stored object as oldObject; DELETE sends oldObject only, and a denied delete keeps the object", async () => {
    const ns = await s.namespace("vwh-del");
    hook.handle(`/del-${ns}`, (review) => {
      const op = (review as { request: { operation: string } }).request.operation;
      return op === "DELETE" ? deny(review, { message: "keep it" }) : allow(review);
    });
    const rules = [
      { operations: ["UPDATE", "DELETE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] },
    ];
    await s.install("validating", ns, ns, [
      webhookFor(hook, "del.kubesdk.test", `/del-${ns}`, ns, { rules }),
    ]);
    expect((await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, cm("kept"))).status).toBe(201);
    const put = await t.call(
      "PUT",
      `/api/v1/namespaces/${ns}/configmaps/kept`,
      cm("kept", { data: { a: "2" } }),
    );
    expect(put.status).toBe(200);
    const del = await t.call("DELETE", `/api/v1/namespaces/${ns}/configmaps/kept`);
    expect(del.status).toBe(400);
    expect(del.json.message).toBe('admission webhook "del.kubesdk.test" denied the request: keep it');
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/configmaps/kept`)).status).toBe(200);
    const [update, remove] = reviewsAt(hook, `/del-${ns}`);
    expect(update?.operation).toBe("UPDATE");
    expect(update?.object.data).toEqual({ a: "2" });
    expect(update?.oldObject.data).toEqual({ a: "1" });
    expect(update?.options).toMatchObject({ kind: "UpdateOptions", apiVersion: "meta.k8s.io/v1" });
    expect(remove?.operation).toBe("DELETE");
    expect(remove?.name).toBe("kept");
    expect(remove?.object).toBeNull();
    expect(remove?.oldObject.data).toEqual({ a: "2" });
    expect(remove?.options).toMatchObject({ kind: "DeleteOptions", apiVersion: "meta.k8s.io/v1" });
    // A collection delete asks for each item, under the collection's request (no name).
    const collection = await t.call("DELETE", `/api/v1/namespaces/${ns}/configmaps`);
    expect(collection.status).toBe(400);
    expect(collection.json.message).toBe('admission webhook "del.kubesdk.test" denied the request: keep it');
    const [item] = reviewsAt(hook, `/del-${ns}`).slice(2);
    expect(item?.operation).toBe("DELETE");
    expect(item?.name).toBeUndefined();
    expect(item?.oldObject.metadata.name).toBe("kept");
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/configmaps/kept`)).status).toBe(200);
  });

  it("a rule for a subresource is called for it and not for the main resource, and `*` means main resources only", async () => {
    const ns = await s.namespace("vwh-sub");
    hook.handle(`/status-${ns}`, (review) => allow(review));
    hook.handle(`/star-${ns}`, (review) => allow(review));
    // Deployments: no controller of either target writes them here.
    const on = (resources: string[]) => ({
      rules: [{ operations: ["UPDATE"], apiGroups: ["apps"], apiVersions: ["v1"], resources }],
    });
    await s.install("validating", ns, ns, [
      webhookFor(hook, "status.kubesdk.test", `/status-${ns}`, ns, on(["deployments/status"])),
      webhookFor(hook, "star.kubesdk.test", `/star-${ns}`, ns, on(["*"])),
    ]);
    const base = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const labels = { app: "sub" };
    const spec = {
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: "c", image: "nginx" }] } },
    };
    expect((await t.call("POST", base, { body: { metadata: { name: "d" }, spec } })).status).toBe(201);
    const merge = "application/merge-patch+json";
    const statusPatch = { status: { observedGeneration: 1 } };
    expect(
      (await t.call("PATCH", `${base}/d/status`, { body: statusPatch, contentType: merge })).status,
    ).toBe(200);
    const statusCalls = reviewsAt(hook, `/status-${ns}`);
    expect(statusCalls.map((r) => r.subResource)).toEqual(["status"]);
    expect(statusCalls[0]?.requestSubResource).toBe("status");
    expect(reviewsAt(hook, `/star-${ns}`)).toEqual([]);
    const scaled = { spec: { replicas: 2 } };
    expect((await t.call("PATCH", `${base}/d`, { body: scaled, contentType: merge })).status).toBe(200);
    // kube-apiserver may admit a patch twice (a retry after a conflict with its cache): each call is
    // for the main resource.
    const mainCalls = reviewsAt(hook, `/star-${ns}`);
    expect(mainCalls.length).toBeGreaterThan(0);
    expect(mainCalls.every((r) => r.subResource === undefined && r.operation === "UPDATE")).toBe(true);
    expect(reviewsAt(hook, `/status-${ns}`)).toHaveLength(1);
  });
});

describe("mutating admission webhooks", () => {
  it("a JSONPatch answer changes the stored object, and validating webhooks see the mutated object", async () => {
    const ns = await s.namespace("mwh-patch");
    hook.handle(`/label-${ns}`, (review) =>
      patch(review, [{ op: "add", path: "/metadata/labels", value: { mutated: "yes" } }], {
        warnings: ["labelled"],
      }),
    );
    hook.handle(`/check-${ns}`, (review) => allow(review));
    await s.install("mutating", ns, ns, [webhookFor(hook, "label.kubesdk.test", `/label-${ns}`, ns)]);
    await s.install("validating", `${ns}-v`, ns, [
      webhookFor(hook, "check.kubesdk.test", `/check-${ns}`, ns),
    ]);
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, cm("patched"));
    expect(res.status).toBe(201);
    expect(res.json.metadata.labels).toEqual({ mutated: "yes" });
    expect(res.headers.warning).toBe('299 - "labelled"');
    const stored = await t.call("GET", `/api/v1/namespaces/${ns}/configmaps/patched`);
    expect(stored.json.metadata.labels).toEqual({ mutated: "yes" });
    const [seen] = reviewsAt(hook, `/check-${ns}`);
    expect(seen?.object.metadata.labels).toEqual({ mutated: "yes" });
    // On CREATE a mutating webhook is shown no uid or creationTimestamp: the store sets them later.
    const [shown] = reviewsAt(hook, `/label-${ns}`);
    expect(shown?.object.metadata.uid).toBeUndefined();
    expect(shown?.object.metadata.creationTimestamp).toBeUndefined();
    expect(seen?.object.metadata.uid).toBe(res.json.metadata.uid);
  });

  it("reinvocationPolicy IfNeeded calls an earlier webhook again once a later one changed the object, never a third time", async () => {
    const ns = await s.namespace("mwh-reinv");
    // first: always changes the object (a counter), asks to be called again; second: adds a label once.
    hook.handle(`/first-${ns}`, (review) => {
      const obj = (review as { request: { object: { data?: Record<string, string> } } }).request.object;
      const n = Number(obj.data?.count ?? "0") + 1;
      return patch(review, [{ op: "add", path: "/data/count", value: String(n) }]);
    });
    hook.handle(`/second-${ns}`, (review) => {
      const obj = (review as { request: { object: { metadata: { labels?: object } } } }).request.object;
      return obj.metadata.labels
        ? allow(review)
        : patch(review, [{ op: "add", path: "/metadata/labels", value: { second: "x" } }]);
    });
    await s.install("mutating", ns, ns, [
      webhookFor(hook, "first.kubesdk.test", `/first-${ns}`, ns, { reinvocationPolicy: "IfNeeded" }),
      webhookFor(hook, "second.kubesdk.test", `/second-${ns}`, ns),
    ]);
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, cm("again"));
    expect(res.status).toBe(201);
    expect(res.json.data.count).toBe("2");
    expect(res.json.metadata.labels).toEqual({ second: "x" });
    expect(reviewsAt(hook, `/first-${ns}`)).toHaveLength(2);
    expect(reviewsAt(hook, `/second-${ns}`)).toHaveLength(1);
  });
});
