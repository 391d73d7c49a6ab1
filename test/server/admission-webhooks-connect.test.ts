/**
 * Admission of CONNECT requests (docs/divergences.md WH9): a validating webhook registered for
 * operation CONNECT on `pods/proxy` is called before the server proxies anything, with the
 * request's PodProxyOptions as the object, and its denial is the request's answer.
 */
import { randomBytes } from "node:crypto";
import { request } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allow, deny, reviewsAt, WebhookSuite, webhookFor } from "../support/admission-webhooks.js";
import type { TestTarget } from "../support/target.js";

let s: WebhookSuite;

beforeAll(async () => {
  s = await WebhookSuite.start();
});
afterAll(() => s.close());

/** A WebSocket upgrade of `path` (as kubectl exec sends it) that the server answers without upgrading. */
function refusedUpgrade(t: TestTarget, path: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.url}${path}`, {
      ...(t.ca ? { ca: t.ca } : { rejectUnauthorized: false }),
      headers: {
        authorization: `Bearer ${t.token}`,
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": randomBytes(16).toString("base64"),
        "sec-websocket-protocol": "v5.channel.k8s.io",
      },
    });
    req.on("upgrade", (_res, socket) => {
      socket.destroy();
      reject(new Error(`${path} was upgraded`));
    });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (c: Buffer) => {
        body += c.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(body) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const connectRule = (resources: string[]) => [
  { operations: ["CONNECT"], apiGroups: [""], apiVersions: ["v1"], resources },
];

describe("CONNECT admission", () => {
  it("a validating webhook for pods/proxy sees the PodProxyOptions and its denial answers the request", async () => {
    const ns = await s.namespace("wh-connect");
    s.hook.handle(`/connect-${ns}`, (r) => deny(r, { message: "no proxying", code: 403 }));
    s.hook.handle(`/other-${ns}`, (r) => allow(r));
    await s.install("validating", ns, ns, [
      webhookFor(s.hook, "connect.kubesdk.test", `/connect-${ns}`, ns, {
        rules: connectRule(["pods/proxy"]),
        objectSelector: {},
      }),
      webhookFor(s.hook, "exec.kubesdk.test", `/other-${ns}`, ns, {
        rules: connectRule(["pods/exec"]),
        objectSelector: {},
      }),
    ]);
    const res = await s.t.call("GET", `/api/v1/namespaces/${ns}/pods/nowhere/proxy/some/path?q=1`);
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({
      kind: "Status",
      status: "Failure",
      code: 403,
      message: 'admission webhook "connect.kubesdk.test" denied the request: no proxying',
    });
    const [review] = reviewsAt(s.hook, `/connect-${ns}`);
    expect(review).toMatchObject({
      kind: { group: "", version: "v1", kind: "PodProxyOptions" },
      resource: { group: "", version: "v1", resource: "pods" },
      subResource: "proxy",
      requestKind: { group: "", version: "v1", kind: "PodProxyOptions" },
      requestResource: { group: "", version: "v1", resource: "pods" },
      requestSubResource: "proxy",
      name: "nowhere",
      namespace: ns,
      operation: "CONNECT",
      object: { kind: "PodProxyOptions", apiVersion: "v1", path: "/some/path" },
      oldObject: null,
      dryRun: false,
      options: null,
    });
    expect(reviewsAt(s.hook, `/other-${ns}`)).toEqual([]);
  });

  it("a port in the proxied name and services/proxy: admitted with the name as the path gives it", async () => {
    const ns = await s.namespace("wh-connect-svc");
    s.hook.handle(`/proxy-${ns}`, (r) => deny(r, { message: "no proxying", code: 403 }));
    await s.install("validating", ns, ns, [
      webhookFor(s.hook, "proxy.kubesdk.test", `/proxy-${ns}`, ns, {
        rules: connectRule(["pods/proxy", "services/proxy"]),
        objectSelector: {},
      }),
    ]);
    for (const path of [`pods/nowhere:8080/proxy`, `services/http:nowhere:web/proxy/x`]) {
      const res = await s.t.call("GET", `/api/v1/namespaces/${ns}/${path}`);
      expect(res.status, path).toBe(403);
    }
    const reviews = reviewsAt(s.hook, `/proxy-${ns}`);
    expect(reviews.map((r) => [r.name, r.resource.resource, r.kind.kind, r.object])).toEqual([
      ["nowhere:8080", "pods", "PodProxyOptions", { kind: "PodProxyOptions", apiVersion: "v1" }],
      [
        "http:nowhere:web",
        "services",
        "ServiceProxyOptions",
        { kind: "ServiceProxyOptions", apiVersion: "v1", path: "/x" },
      ],
    ]);
  });

  it("exec, attach and port-forward upgrades are admitted first, with their options objects", async () => {
    const ns = await s.namespace("wh-connect-exec");
    s.hook.handle(`/streams-${ns}`, (r) => deny(r, { message: "no streams", code: 403 }));
    await s.install("validating", ns, ns, [
      webhookFor(s.hook, "streams.kubesdk.test", `/streams-${ns}`, ns, {
        rules: connectRule(["pods/exec", "pods/attach", "pods/portforward"]),
        objectSelector: {},
      }),
    ]);
    const pods = `/api/v1/namespaces/${ns}/pods/nowhere`;
    for (const path of [
      `${pods}/exec?command=ls&command=-l&stdout=true&stderr=true&container=main`,
      `${pods}/attach?stdin=true&stdout=true&tty=true`,
      `${pods}/portforward?ports=8080`,
    ]) {
      const res = await refusedUpgrade(s.t, path);
      expect(res.status, path).toBe(403);
      expect(res.json).toMatchObject({
        message: 'admission webhook "streams.kubesdk.test" denied the request: no streams',
      });
    }
    const reviews = reviewsAt(s.hook, `/streams-${ns}`);
    const v1 = { apiVersion: "v1" };
    expect(reviews.map((r) => [r.operation, r.subResource, r.kind.kind, r.name, r.object])).toEqual([
      [
        "CONNECT",
        "exec",
        "PodExecOptions",
        "nowhere",
        {
          kind: "PodExecOptions",
          ...v1,
          stdout: true,
          stderr: true,
          container: "main",
          command: ["ls", "-l"],
        },
      ],
      [
        "CONNECT",
        "attach",
        "PodAttachOptions",
        "nowhere",
        { kind: "PodAttachOptions", ...v1, stdin: true, stdout: true, tty: true },
      ],
      [
        "CONNECT",
        "portforward",
        "PodPortForwardOptions",
        "nowhere",
        { kind: "PodPortForwardOptions", ...v1, ports: [8080] },
      ],
    ]);
  });
});
