import { createServer } from "node:net";
import { afterAll, beforeAll, it } from "vitest";
import { allow, createTestNamespace, deny, installWebhooks, patch, webhookFor } from "../support/admission-webhooks.js";
import { type HttpsWebhook, startHttpsWebhook } from "../support/https-webhook.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let hook: HttpsWebhook;
beforeAll(async () => {
  t = await startTarget();
  hook = await startHttpsWebhook();
});
afterAll(async () => {
  await hook.close();
  await t.close();
});
const cm = (name: string, extra: Record<string, unknown> = {}) => ({ body: { metadata: { name }, data: { a: "1" }, ...extra } });

it("explore", async () => {
  const ns = uniqueName("explore");
  await createTestNamespace(t, ns);
  const closed = await new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  hook.handle("/hang", () => new Promise(() => undefined));
  hook.handle("/garbage", () => "this is not json");
  hook.handle("/uid", (r) => ({ ...allow(r), response: { uid: "nope", allowed: true } }));
  hook.handle("/apiv", (r) => ({ ...allow(r), apiVersion: "admission.k8s.io/v2" }));
  hook.handle("/missing", (r) => patch(r, [{ op: "replace", path: "/data/missing", value: "x" }]));
  hook.handle("/name", (r) => patch(r, [{ op: "replace", path: "/metadata/name", value: "renamed" }]));
  hook.handle("/ns", (r) => patch(r, [{ op: "replace", path: "/metadata/namespace", value: "default" }]));
  hook.handle("/kind", (r) => patch(r, [{ op: "replace", path: "/kind", value: "Secret" }]));
  hook.handle("/number", (r) => patch(r, [{ op: "replace", path: "/data", value: 5 }]));
  hook.handle("/nopatchtype", (r) => allow(r, { patch: Buffer.from("[]").toString("base64") }));
  hook.handle("/undecodable", (r) => allow(r, { patchType: "JSONPatch", patch: Buffer.from("{{").toString("base64") }));
  hook.handle("/merge", (r) => allow(r, { patchType: "MergePatch", patch: Buffer.from('[{"op":"add","path":"/data/b","value":"x"}]').toString("base64") }));
  hook.handle("/onDelete", (r) => patch(r, [{ op: "add", path: "/data/b", value: "x" }]));
  hook.handle("/status500", () => { throw new Error("boom"); });
  const sel = (name: string) => ({ objectSelector: { matchLabels: { case: name } } });
  const cases: [string, string, Record<string, unknown>][] = [
    ["refused", "/x", { clientConfig: { url: `https://127.0.0.1:${closed}/x`, caBundle: hook.caBundle } }],
    ["hang", "/hang", { timeoutSeconds: 1 }],
    ["garbage", "/garbage", {}],
    ["uid", "/uid", {}],
    ["apiv", "/apiv", {}],
    ["missing", "/missing", {}],
    ["name", "/name", {}],
    ["ns", "/ns", {}],
    ["kind", "/kind", {}],
    ["number", "/number", {}],
    ["nopatchtype", "/nopatchtype", {}],
    ["undecodable", "/undecodable", {}],
    ["merge", "/merge", {}],
    ["status500", "/status500", {}],
    ["noca", "/hang", { clientConfig: { url: `${hook.url}/hang` } }],
    ["deletepatch", "/onDelete", { rules: [{ operations: ["DELETE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }] }],
  ];
  const webhooks = cases.map(([name, path, extra]) => webhookFor(hook, `${name}.kubesdk.test`, path, ns, { ...sel(name), ...extra }));
  await installWebhooks(t, "mutating", hook, ns, ns, webhooks);
  for (const [name] of cases) {
    if (name === "deletepatch") {
      await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, cm("todelete", { metadata: { name: "todelete", labels: { case: name } } }));
      const r = await t.call("DELETE", `/api/v1/namespaces/${ns}/configmaps/todelete`);
      console.log("CASE", name, r.status, r.text);
      continue;
    }
    const r = await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, cm(name, { metadata: { name, labels: { case: name } } }));
    console.log("CASE", name, r.status, r.text);
  }
  // update changing name
  await t.call("POST", `/api/v1/namespaces/${ns}/configmaps`, cm("upd"));
  const ns2 = uniqueName("explore-u");
  await createTestNamespace(t, ns2);
  await installWebhooks(t, "mutating", hook, ns2, ns2, [webhookFor(hook, "uname.kubesdk.test", "/name", ns2, { rules: [{ operations: ["UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }] })]);
  await t.call("POST", `/api/v1/namespaces/${ns2}/configmaps`, cm("upd"));
  const u = await t.call("PUT", `/api/v1/namespaces/${ns2}/configmaps/upd`, cm("upd", { data: { a: "2" } }));
  console.log("CASE update-name", u.status, u.text);
  const nsCreate = uniqueName("explore-n");
  const nsHook = uniqueName("nsh");
  hook.handle("/nsobj", (r) => allow(r));
  await t.call("POST", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", { body: { metadata: { name: nsHook }, webhooks: [{ ...webhookFor(hook, "nsobj.kubesdk.test", "/nsobj", ns), namespaceSelector: {}, objectSelector: { matchLabels: { nsobj: nsHook } }, rules: [{ operations: ["*"], apiGroups: [""], apiVersions: ["v1"], resources: ["namespaces"] }] }] } });
  for (let i = 0; i < 100 && hook.requests.filter((q) => q.path === "/nsobj").length === 0; i++) {
    await t.call("POST", "/api/v1/namespaces?dryRun=All", { body: { metadata: { name: `${nsCreate}-p${i}`, labels: { nsobj: nsHook } } } });
  }
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: nsCreate, labels: { nsobj: nsHook } } } });
  await t.call("DELETE", `/api/v1/namespaces/${nsCreate}`);
  for (const q of hook.requests.filter((q) => q.path === "/nsobj")) {
    const r = (q.body as { request: Record<string, unknown> }).request;
    console.log("NSREQ", r.operation, r.name, r.namespace, JSON.stringify(r.options));
  }
  const gen = hook.requests.filter((q) => q.path === "/probe-" + ns);
  console.log("PROBEREQ", JSON.stringify(gen[0]?.body));
  await t.call("DELETE", `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${nsHook}`);
  await t.call("DELETE", `/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/${ns}`);
  await t.call("DELETE", `/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/${ns2}`);
}, 60_000);
