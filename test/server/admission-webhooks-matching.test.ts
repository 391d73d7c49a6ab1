/**
 * Which requests a webhook is called for, as kube-apiserver decides: namespaceSelector,
 * objectSelector (new or old object), operations, scope, sideEffects with dry run,
 * matchConditions; and a webhook called by `service`, resolved through the Service's
 * EndpointSlice to this process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allow, deny, reviewsAt, WebhookSuite, webhookFor } from "../support/admission-webhooks.js";
import { type HttpsWebhook, startHttpsWebhook } from "../support/https-webhook.js";
import { requirePodAddress } from "../support/kubelet.js";
import { createServiceEndpoint } from "../support/service-endpoint.js";
import { type TestTarget, uniqueName } from "../support/target.js";

let s: WebhookSuite;
let t: TestTarget;
let hook: HttpsWebhook;

beforeAll(async () => {
  s = await WebhookSuite.start();
  ({ t, hook } = s);
});
afterAll(() => s.close());

const names = (path: string) => reviewsAt(hook, path).map((r) => `${r.operation} ${r.name}`);
const create = (ns: string, name: string, labels: Record<string, string> = {}) =>
  t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, {
    body: { metadata: { name, labels }, data: { a: "1" } },
  });

describe("selecting requests", () => {
  it("objectSelector matches the new or the old object's labels; operations pick the verbs", async () => {
    const ns = await s.namespace("wh-objsel");
    hook.handle(`/obj-${ns}`, (r) => allow(r));
    await s.install("validating", ns, ns, [
      webhookFor(hook, "obj.kubesdk.test", `/obj-${ns}`, ns, {
        objectSelector: { matchLabels: { watched: "yes" } },
        rules: [
          {
            operations: ["CREATE", "UPDATE"],
            apiGroups: [""],
            apiVersions: ["v1"],
            resources: ["configmaps"],
          },
        ],
      }),
    ]);
    expect((await create(ns, "plain")).status).toBe(201);
    expect((await create(ns, "watched", { watched: "yes" })).status).toBe(201);
    // Removing the label: the old object still matches.
    const put = await t.call("PUT", `/api/v1/namespaces/${ns}/configmaps/watched`, {
      body: { metadata: { name: "watched" }, data: { a: "2" } },
    });
    expect(put.status).toBe(200);
    expect((await t.call("DELETE", `/api/v1/namespaces/${ns}/configmaps/watched`)).status).toBe(200);
    expect(names(`/obj-${ns}`)).toEqual(["CREATE watched", "UPDATE watched"]);
  });

  it("namespaceSelector matches the namespace's labels; scope Cluster matches Namespace objects, named as their own namespace", async () => {
    const ns = await s.namespace("wh-nssel");
    const other = uniqueName("wh-nssel-other");
    await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: other } } });
    hook.handle(`/ns-${ns}`, (r) => allow(r));
    hook.handle(`/cluster-${ns}`, (r) => allow(r));
    const namespaces = [
      { operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["namespaces"] },
    ];
    await s.install("validating", ns, ns, [
      webhookFor(hook, "ns.kubesdk.test", `/ns-${ns}`, ns),
      webhookFor(hook, "cluster.kubesdk.test", `/cluster-${ns}`, ns, {
        namespaceSelector: { matchLabels: { "cluster-probe": ns } },
        objectSelector: {},
        rules: [{ ...namespaces[0], scope: "Cluster" }],
      }),
      webhookFor(hook, "namespaced.kubesdk.test", `/cluster-${ns}`, ns, {
        namespaceSelector: {},
        objectSelector: {},
        rules: [{ ...namespaces[0], scope: "Namespaced" }],
      }),
    ]);
    expect((await create(other, "elsewhere")).status).toBe(201);
    expect((await create(ns, "here")).status).toBe(201);
    expect(names(`/ns-${ns}`)).toEqual(["CREATE here"]);
    const child = uniqueName("wh-child");
    const made = await t.call("POST", "/api/v1/namespaces", {
      body: { metadata: { name: child, labels: { "cluster-probe": ns } } },
    });
    expect(made.status).toBe(201);
    const seen = reviewsAt(hook, `/cluster-${ns}`);
    expect(seen.map((r) => [r.name, r.namespace])).toEqual([[child, child]]);
    await t.call("DELETE", `/api/v1/namespaces/${child}`);
    await t.call("DELETE", `/api/v1/namespaces/${other}`);
  });
});

describe("dry run", () => {
  it("a webhook with sideEffects NoneOnDryRun is called with dryRun true and its denial holds", async () => {
    const ns = await s.namespace("wh-dry");
    hook.handle(`/dry-${ns}`, (r) => deny(r, { message: "not even in a dry run", code: 403 }));
    await s.install("validating", ns, ns, [
      webhookFor(hook, "dry.kubesdk.test", `/dry-${ns}`, ns, { sideEffects: "NoneOnDryRun" }),
    ]);
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, {
      body: { metadata: { name: "dry" } },
    });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(
      'admission webhook "dry.kubesdk.test" denied the request: not even in a dry run',
    );
    const [review] = reviewsAt(hook, `/dry-${ns}`);
    expect(review?.dryRun).toBe(true);
    expect(review?.options).toEqual({ kind: "CreateOptions", apiVersion: "meta.k8s.io/v1", dryRun: ["All"] });
  });
});

describe("matchConditions", () => {
  it("a false condition skips the webhook; an error fails the request under Fail and skips it under Ignore", async () => {
    const ns = await s.namespace("wh-mc");
    hook.handle(`/mc-${ns}`, (r) => deny(r, { message: "called", code: 403 }));
    const conditions = (expression: string) => [{ name: "only-selected", expression }];
    await s.install("validating", ns, ns, [
      webhookFor(hook, "cond.kubesdk.test", `/mc-${ns}`, ns, {
        objectSelector: { matchLabels: { case: "cond" } },
        matchConditions: conditions("object.metadata.name.startsWith('deny')"),
      }),
      webhookFor(hook, "error-fail.kubesdk.test", `/mc-${ns}`, ns, {
        objectSelector: { matchLabels: { case: "error-fail" } },
        matchConditions: conditions("object.data.missing == 'x'"),
      }),
      webhookFor(hook, "error-ignore.kubesdk.test", `/mc-${ns}`, ns, {
        failurePolicy: "Ignore",
        objectSelector: { matchLabels: { case: "error-ignore" } },
        matchConditions: conditions("object.data.missing == 'x'"),
      }),
    ]);
    expect((await create(ns, "allowed", { case: "cond" })).status).toBe(201);
    const denied = await create(ns, "deny-me", { case: "cond" });
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('admission webhook "cond.kubesdk.test" denied the request: called');
    const failed = await create(ns, "errs", { case: "error-fail" });
    expect(failed.status).toBe(403);
    expect(failed.json.reason).toBe("Forbidden");
    expect(failed.json).toMatchObject({
      message: `configmaps "errs" is forbidden: expression 'object.data.missing == 'x'' resulted in error: no such key: missing`,
      details: { name: "errs", kind: "configmaps" },
    });
    expect((await create(ns, "ignored", { case: "error-ignore" })).status).toBe(201);
    expect(names(`/mc-${ns}`)).toEqual(["CREATE deny-me"]);
  });
});

describe("matchConditions and the authorizer", () => {
  it("ask the server's authorizer about the requester, the request's resource and a service account", async () => {
    const ns = await s.namespace("wh-authz");
    hook.handle(`/authz-${ns}`, (r) => deny(r, { message: "called", code: 403 }));
    const only = (expression: string) => [{ name: "authz", expression }];
    await s.install("validating", ns, ns, [
      webhookFor(hook, "requester.kubesdk.test", `/authz-${ns}`, ns, {
        objectSelector: { matchLabels: { case: "requester" } },
        matchConditions: only(
          "authorizer.requestResource.check('create').allowed() && authorizer.group('').resource('secrets').namespace(request.namespace).check('list').allowed()",
        ),
      }),
      webhookFor(hook, "account.kubesdk.test", `/authz-${ns}`, ns, {
        objectSelector: { matchLabels: { case: "account" } },
        matchConditions: only(
          "authorizer.serviceAccount(request.namespace, 'nobody').group('').resource('secrets').namespace(request.namespace).check('get').allowed()",
        ),
      }),
    ]);
    const asked = await create(ns, "asked", { case: "requester" });
    expect(asked.status).toBe(403);
    expect(asked.json.message).toBe('admission webhook "requester.kubesdk.test" denied the request: called');
    expect((await create(ns, "not-allowed", { case: "account" })).status).toBe(201);
    expect(names(`/authz-${ns}`)).toEqual(["CREATE asked"]);
  });
});

describe("webhooks called by service", () => {
  it("resolve the Service through its EndpointSlice and verify the certificate for <service>.<namespace>.svc", async () => {
    const ns = await s.namespace("wh-svc");
    const service = "admission";
    const host = requirePodAddress();
    const served = await startHttpsWebhook({ host, dnsNames: [`${service}.${ns}.svc`] });
    try {
      served.handle("/validate", (r) => deny(r, { message: "by service", code: 403 }));
      served.handle(`/probe-${ns}`, (r) => allow(r));
      const port = { name: "https", port: 443 };
      const targetPort = Number(new URL(served.url).port);
      await createServiceEndpoint(t, { namespace: ns, name: service, port, ip: host, targetPort });
      const webhook = webhookFor(served, "svc.kubesdk.test", "/validate", ns, {
        clientConfig: {
          service: { namespace: ns, name: service, path: "/validate" },
          caBundle: served.caBundle,
        },
      });
      await s.install("validating", ns, ns, [webhook], served);
      const res = await create(ns, "via-service");
      expect(res.status).toBe(403);
      expect(res.json.message).toBe('admission webhook "svc.kubesdk.test" denied the request: by service');
      expect(served.requests.filter((r) => r.path === "/validate")).toHaveLength(1);
    } finally {
      await served.close();
    }
  });
});
