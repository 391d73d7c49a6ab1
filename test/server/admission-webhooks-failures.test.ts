/**
 * Admission webhooks that misbehave, answered as kube-apiserver answers them, with nothing stored:
 * unreachable, hanging past timeoutSeconds, garbage, the wrong uid or type, patches that do not
 * apply, break the object or move it, patches on DELETE; failurePolicy Ignore; no other client
 * waits for a slow webhook.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  allow,
  createTestNamespace,
  installWebhooks,
  patch,
  removeWebhooks,
  webhookFor,
} from "../support/admission-webhooks.js";
import { type HttpsWebhook, startHttpsWebhook } from "../support/https-webhook.js";
import { type CallResult, startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let hook: HttpsWebhook;
let ns: string;
/** A loopback port nothing listens on. */
let closedPort: number;

type Case = {
  name: string;
  path: string;
  answer?: (review: unknown) => unknown;
  extra?: Record<string, unknown>;
};

const b64 = (s: string) => Buffer.from(s).toString("base64");
const CASES: Case[] = [
  { name: "refused", path: "/refused", extra: { clientConfig: "refused" } },
  { name: "refused-ignore", path: "/refused", extra: { clientConfig: "refused", failurePolicy: "Ignore" } },
  { name: "hang", path: "/hang", answer: () => new Promise(() => undefined), extra: { timeoutSeconds: 1 } },
  { name: "garbage", path: "/garbage", answer: () => "this is not json" },
  { name: "garbage-ignore", path: "/garbage", extra: { failurePolicy: "Ignore" } },
  {
    name: "uid",
    path: "/uid",
    answer: (r) => ({ ...allow(r), response: { uid: "not-the-uid", allowed: true } }),
  },
  {
    name: "apiversion",
    path: "/apiversion",
    answer: (r) => ({ ...allow(r), apiVersion: "admission.k8s.io/v2" }),
  },
  { name: "http500", path: "/http500", answer: () => Promise.reject(new Error("boom")) },
  { name: "no-ca", path: "/garbage", extra: { clientConfig: "no-ca" } },
  { name: "bad-ca", path: "/garbage", extra: { clientConfig: "bad-ca" } },
  { name: "no-patchtype", path: "/no-patchtype", answer: (r) => allow(r, { patch: b64("[]") }) },
  {
    name: "undecodable",
    path: "/undecodable",
    answer: (r) => allow(r, { patchType: "JSONPatch", patch: b64("{{") }),
  },
  {
    name: "merge",
    path: "/merge",
    answer: (r) =>
      allow(r, { patchType: "MergePatch", patch: b64('[{"op":"add","path":"/data/b","value":"x"}]') }),
  },
  { name: "breaks", path: "/breaks", answer: (r) => patch(r, [{ op: "replace", path: "/data", value: 5 }]) },
  {
    name: "kind",
    path: "/kind",
    answer: (r) => patch(r, [{ op: "replace", path: "/kind", value: "Secret" }]),
  },
  {
    name: "set-uid",
    path: "/set-uid",
    answer: (r) => patch(r, [{ op: "add", path: "/metadata/uid", value: "chosen-by-the-webhook" }]),
  },
  {
    name: "namespace",
    path: "/namespace",
    answer: (r) => patch(r, [{ op: "replace", path: "/metadata/namespace", value: "default" }]),
  },
  {
    name: "rename-update",
    path: "/rename",
    answer: (r) => patch(r, [{ op: "replace", path: "/metadata/name", value: "renamed" }]),
    extra: {
      rules: [{ operations: ["UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }],
    },
  },
  {
    name: "patch-delete",
    path: "/patch-delete",
    answer: (r) => patch(r, [{ op: "add", path: "/data/b", value: "x" }]),
    extra: {
      rules: [{ operations: ["DELETE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }],
    },
  },
];

beforeAll(async () => {
  t = await startTarget();
  hook = await startHttpsWebhook();
  closedPort = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
  ns = uniqueName("wh-bad");
  await createTestNamespace(t, ns);
  for (const c of CASES) if (c.answer) hook.handle(c.path, c.answer);
  const webhooks = CASES.map((c) => {
    const { clientConfig, ...rest } = c.extra ?? {};
    const client =
      clientConfig === "refused"
        ? { clientConfig: { url: `https://127.0.0.1:${closedPort}${c.path}`, caBundle: hook.caBundle } }
        : clientConfig === "no-ca"
          ? { clientConfig: { url: `${hook.url}${c.path}` } }
          : clientConfig === "bad-ca"
            ? { clientConfig: { url: `${hook.url}${c.path}`, caBundle: b64("not a certificate") } }
            : {};
    return webhookFor(hook, `${c.name}.kubesdk.test`, c.path, ns, {
      objectSelector: { matchLabels: { case: c.name } },
      ...client,
      ...rest,
    });
  });
  await installWebhooks(t, "mutating", hook, ns, ns, webhooks);
});
afterAll(async () => {
  await removeWebhooks(t, "mutating", ns);
  await hook.close();
  await t.close();
});

/** Creates a ConfigMap that only the webhook of case `name` selects. */
function createFor(name: string) {
  return t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, {
    body: { metadata: { name, labels: { case: name } }, data: { a: "1" } },
  });
}

/** The 500 upstream answers for a failed call under failurePolicy Fail. */
function expectCallFailure(res: CallResult, webhook: string, why: string) {
  const message = `failed calling webhook "${webhook}.kubesdk.test": ${why}`;
  expect(res.status).toBe(500);
  expect(res.json).toMatchObject({
    kind: "Status",
    status: "Failure",
    reason: "InternalError",
    code: 500,
    message: `Internal error occurred: ${message}`,
    details: { causes: [{ message }] },
  });
}

async function expectNotStored(name: string) {
  expect((await t.call("GET", `/api/v1/namespaces/${ns}/configmaps/${name}`)).status).toBe(404);
}

describe("webhooks that cannot be called", () => {
  it("a refused connection fails the request under failurePolicy Fail and is ignored under Ignore", async () => {
    const url = `https://127.0.0.1:${closedPort}/refused?timeout=10s`;
    expectCallFailure(
      await createFor("refused"),
      "refused",
      `failed to call webhook: Post "${url}": dial tcp 127.0.0.1:${closedPort}: connect: connection refused`,
    );
    await expectNotStored("refused");
    expect((await createFor("refused-ignore")).status).toBe(201);
  });

  it("a webhook that hangs times out after timeoutSeconds, and other clients are answered meanwhile", async () => {
    const hanging = createFor("hang");
    let hangSettled = false;
    void hanging.then(() => {
      hangSettled = true;
    });
    const list = await t.call("GET", `/api/v1/namespaces/${ns}/configmaps`);
    expect(list.status).toBe(200);
    expect(hangSettled).toBe(false);
    expectCallFailure(
      await hanging,
      "hang",
      `failed to call webhook: Post "${hook.url}/hang?timeout=1s": context deadline exceeded`,
    );
    await expectNotStored("hang");
  });

  it("a caBundle that holds no certificate fails the call", async () => {
    expectCallFailure(
      await createFor("bad-ca"),
      "bad-ca",
      "could not get REST client: unable to load root certificates: unable to parse bytes as PEM block",
    );
  });

  it("a certificate the caBundle does not sign fails the TLS handshake", async () => {
    expectCallFailure(
      await createFor("no-ca"),
      "no-ca",
      `failed to call webhook: Post "${hook.url}/garbage?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  });
});

describe("answers that cannot be used", () => {
  it("garbage is a call failure, ignored under failurePolicy Ignore", async () => {
    const typeMeta =
      'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
    expectCallFailure(
      await createFor("garbage"),
      "garbage",
      `failed to call webhook: couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${typeMeta}`,
    );
    await expectNotStored("garbage");
    expect((await createFor("garbage-ignore")).status).toBe(201);
  });

  it("a wrong uid, an unknown AdmissionReview version and an HTTP error are call failures", async () => {
    const uid = await createFor("uid");
    expect(uid.status).toBe(500);
    expect(uid.json.message).toMatch(
      /^Internal error occurred: failed calling webhook "uid.kubesdk.test": received invalid webhook response: expected response.uid="[0-9a-f-]{36}", got "not-the-uid"$/,
    );
    expectCallFailure(
      await createFor("apiversion"),
      "apiversion",
      'failed to call webhook: no kind "AdmissionReview" is registered for version "admission.k8s.io/v2" in scheme "pkg/runtime/scheme.go:111"',
    );
    expectCallFailure(
      await createFor("http500"),
      "http500",
      'failed to call webhook: an error on the server ("Error: boom") has prevented the request from succeeding',
    );
    for (const name of ["uid", "apiversion", "http500"]) await expectNotStored(name);
  });

  it("a patch without patchType, an unsupported patchType and an undecodable patch are call failures", async () => {
    expectCallFailure(
      await createFor("no-patchtype"),
      "no-patchtype",
      "received invalid webhook response: webhook returned response.patch but not response.patchType",
    );
    expectCallFailure(await createFor("merge"), "merge", 'unsupported patch type "MergePatch"');
    const undecodable = await createFor("undecodable");
    expect(undecodable.status).toBe(500);
    expect(undecodable.json.message).toMatch(
      /^Internal error occurred: failed calling webhook "undecodable.kubesdk.test": received undecodable patch in webhook response: /,
    );
    for (const name of ["no-patchtype", "merge", "undecodable"]) await expectNotStored(name);
  });
});

describe("patches that break the object or change what they may not", () => {
  it("a patch that leaves a field of the wrong type is a 500 with the decoder's message", async () => {
    const res = await createFor("breaks");
    expect(res.status).toBe(500);
    expect(res.json.message).toBe(
      "Internal error occurred: json: cannot unmarshal number into Go struct field ConfigMap.data of type map[string]string",
    );
    await expectNotStored("breaks");
  });

  it("a patch that changes the kind is a 500", async () => {
    const res = await createFor("kind");
    expect(res.status).toBe(500);
    expect(res.json.reason).toBe("InternalError");
    await expectNotStored("kind");
  });

  it("a uid a patch sets on CREATE is replaced by the server's", async () => {
    const res = await createFor("set-uid");
    expect(res.status).toBe(201);
    expect(res.json.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a patch that moves the object to another namespace is a 400", async () => {
    const res = await createFor("namespace");
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      "the namespace of the provided object does not match the namespace sent on the request",
    );
    await expectNotStored("namespace");
    expect((await t.call("GET", "/api/v1/namespaces/default/configmaps/namespace")).status).toBe(404);
  });

  it("a patch that renames an object on update is refused as an immutable field", async () => {
    expect((await createFor("rename-update")).status).toBe(201);
    const put = await t.call("PUT", `/api/v1/namespaces/${ns}/configmaps/rename-update`, {
      body: { metadata: { name: "rename-update", labels: { case: "rename-update" } }, data: { a: "2" } },
    });
    expect(put.status).toBe(422);
    expect(put.json.message).toBe(
      'ConfigMap "renamed" is invalid: metadata.name: Invalid value: "renamed": field is immutable',
    );
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/configmaps/rename-update`)).json.data).toEqual({
      a: "1",
    });
    await expectNotStored("renamed");
  });

  it("a patch answered to a DELETE is a 500 and the object stays", async () => {
    expect((await createFor("patch-delete")).status).toBe(201);
    const del = await t.call("DELETE", `/api/v1/namespaces/${ns}/configmaps/patch-delete`);
    expect(del.status).toBe(500);
    expect(del.json.message).toBe(
      'Internal error occurred: admission webhook "patch-delete.kubesdk.test" attempted to modify the object, which is not supported for this operation',
    );
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/configmaps/patch-delete`)).status).toBe(200);
  });
});
