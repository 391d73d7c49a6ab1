/**
 * The controller's webhook server as an API server calls it, on both targets: registered by `url`
 * with the caBundle and configurations its helpers produce, it denies with the handler's message,
 * defaults through a JSON Patch, converts between two versions on read and list, turns a handler
 * error or a handler past its deadline into a clear denial, and serves a rotated certificate.
 *
 * The reference server calls admission and conversion webhooks only once those features land
 * there (other branches); until then these tests fail on it, as expected.
 */
import { mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { defineCustomResource, established, type Kube } from "@kubesdk/client";
import { deny, silentLogger, WebhookServer } from "@kubesdk/controller";
import { Type } from "typebox";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCertificateAuthority } from "../../packages/server/src/tls.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { clientOf, createNamespace } from "./support.js";

const group = `${uniqueName("wh")}.kubesdk.test`;
const Gizmo = defineCustomResource({
  group,
  kind: "Gizmo",
  scope: "Namespaced",
  versions: {
    v1alpha1: {
      schema: Type.Object({
        spec: Type.Object({ colour: Type.Optional(Type.String()), size: Type.Optional(Type.Integer()) }),
      }),
    },
    v1: {
      storage: true,
      schema: Type.Object({
        spec: Type.Object({ color: Type.Optional(Type.String()), size: Type.Optional(Type.Integer()) }),
      }),
    },
  },
});

let t: TestTarget;
let kube: Kube;
let ns: string;
let hooks: WebhookServer;
let rotating: WebhookServer;
const seen = { validating: new Set<string>(), mutating: new Set<string>() };
const reviews: { operation: string; username: string | undefined; dryRun: boolean }[] = [];
const validatingName = `${group}-validating`;
const mutatingName = `${group}-mutating`;
const rotationName = `${group}-rotation`;

const base = `/apis/${group}`;
const gizmo = (
  name: string,
  spec: Record<string, unknown>,
  labels?: Record<string, string>,
  version = "v1",
) => ({
  body: {
    apiVersion: `${group}/${version}`,
    kind: "Gizmo",
    metadata: { name, ...(labels ? { labels } : {}) },
    spec,
  },
});

function createHooks(): WebhookServer {
  const server = new WebhookServer({ port: 0, tls: { selfSigned: {} }, logger: silentLogger });
  server.validating(Gizmo, (req) => {
    seen.validating.add(req.name ?? "");
    reviews.push({ operation: req.operation, username: req.userInfo.username, dryRun: req.dryRun });
    if ((req.object?.spec.size ?? 0) > 10) return deny("size must be at most 10");
    return undefined;
  });
  server.mutating(Gizmo, (gizmo, req) => {
    seen.mutating.add(req.name ?? "");
    gizmo.spec.color ??= "blue";
    return gizmo;
  });
  server.validating(
    Gizmo,
    () => {
      throw new Error("inventory service unreachable");
    },
    { path: "/fails", objectSelector: { matchLabels: { trigger: "error" } } },
  );
  server.validating(
    Gizmo,
    (req) => new Promise((resolve) => req.signal.addEventListener("abort", () => resolve(undefined))),
    {
      path: "/slow",
      timeoutSeconds: 2,
      objectSelector: { matchLabels: { trigger: "timeout" } },
    },
  );
  server.conversion(Gizmo, {
    hub: "v1",
    spokes: {
      v1alpha1: {
        toHub: ({ spec: { colour, ...rest }, ...o }) => ({
          ...o,
          spec: { ...rest, ...(colour ? { color: colour } : {}) },
        }),
        fromHub: ({ spec: { color, ...rest }, ...o }) => ({
          ...o,
          spec: { ...rest, ...(color ? { colour: color } : {}) },
        }),
      },
    },
  });
  return server;
}

/** Retries a dry-run create until `handlers` saw it: the API server picks up configurations asynchronously. */
async function untilCalled(sets: Set<string>[], labels?: Record<string, string>): Promise<void> {
  let attempt = 0;
  await vi.waitFor(
    async () => {
      const name = `probe-${++attempt}`;
      await t.call("POST", `${base}/v1/namespaces/${ns}/gizmos?dryRun=All`, gizmo(name, {}, labels));
      if (!sets.every((s) => s.has(name))) throw new Error("webhook configuration not in effect yet");
    },
    { timeout: 20_000, interval: 50 },
  );
}

const admissionPath = (kind: "validating" | "mutating") =>
  `/apis/admissionregistration.k8s.io/v1/${kind}webhookconfigurations`;

beforeAll(async () => {
  t = await startTarget();
  kube = await clientOf(t);
  ns = await createNamespace(kube, "webhooks");
  hooks = createHooks();
  await hooks.start();
  const crds = kube.resource("apiextensions.k8s.io/v1", "CustomResourceDefinition");
  await crds.create(hooks.customResourceDefinition(Gizmo));
  await kube.waitFor(crds, Gizmo.name, established());
  const created = await Promise.all([
    t.call("POST", admissionPath("validating"), {
      body: hooks.validatingWebhookConfiguration(validatingName),
    }),
    t.call("POST", admissionPath("mutating"), { body: hooks.mutatingWebhookConfiguration(mutatingName) }),
  ]);
  for (const r of created) expect(r.status, r.text).toBe(201);
  await untilCalled([seen.validating, seen.mutating]);
});

afterAll(async () => {
  for (const [kind, name] of [
    ["validating", validatingName],
    ["mutating", mutatingName],
    ["validating", rotationName],
  ] as const)
    await t?.call("DELETE", `${admissionPath(kind)}/${name}`);
  await t?.call("DELETE", `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${Gizmo.name}`);
  await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
  await hooks?.stop();
  await rotating?.stop();
  await kube?.close();
  await t?.close();
});

describe("admission webhooks of the controller's webhook server", () => {
  it("a validating handler's denial reaches the client with its message and code 403", async () => {
    const res = await t.call("POST", `${base}/v1/namespaces/${ns}/gizmos`, gizmo("too-big", { size: 11 }));
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(
      `admission webhook "vgizmo.${group}" denied the request: size must be at most 10`,
    );
    expect((await t.call("GET", `${base}/v1/namespaces/${ns}/gizmos/too-big`)).status).toBe(404);
    expect(reviews.at(-1)).toEqual({ operation: "CREATE", username: expect.any(String), dryRun: false });
  });

  it("a mutating handler's default is applied through its JSON Patch", async () => {
    const res = await t.call("POST", `${base}/v1/namespaces/${ns}/gizmos`, gizmo("defaulted", { size: 2 }));
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec).toEqual({ size: 2, color: "blue" });
    const kept = await t.call(
      "POST",
      `${base}/v1/namespaces/${ns}/gizmos`,
      gizmo("chosen", { color: "red" }),
    );
    expect(kept.json.spec).toEqual({ color: "red" });
  });

  it("a handler that throws denies the request with the handler's error", async () => {
    const res = await t.call(
      "POST",
      `${base}/v1/namespaces/${ns}/gizmos`,
      gizmo("boom", {}, { trigger: "error" }),
    );
    expect(res.status).toBe(500);
    expect(res.json.message).toBe(
      `admission webhook "fails.vgizmo.${group}" denied the request: validating webhook handler failed: inventory service unreachable`,
    );
  });

  it("a handler past its deadline is answered before the API server's timeout, as a denial", async () => {
    const res = await t.call(
      "POST",
      `${base}/v1/namespaces/${ns}/gizmos`,
      gizmo("stuck", {}, { trigger: "timeout" }),
    );
    expect(res.status).toBe(500);
    // timeoutSeconds 2: the server announces "2s" and the handler gets 80% of it.
    expect(res.json.message).toBe(
      `admission webhook "slow.vgizmo.${group}" denied the request: validating webhook handler did not answer within 1600 ms`,
    );
  });
});

describe("conversion webhook of the controller's webhook server", () => {
  it("converts an object written as v1alpha1 to the stored v1 and back on read and list", async () => {
    const created = await t.call(
      "POST",
      `${base}/v1alpha1/namespaces/${ns}/gizmos`,
      gizmo("old-style", { colour: "green", size: 3 }, undefined, "v1alpha1"),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({
      apiVersion: `${group}/v1alpha1`,
      spec: { colour: "green", size: 3 },
    });
    const asV1 = await t.call("GET", `${base}/v1/namespaces/${ns}/gizmos/old-style`);
    expect(asV1.json).toMatchObject({ apiVersion: `${group}/v1`, spec: { color: "green", size: 3 } });
    const list = await t.call("GET", `${base}/v1alpha1/namespaces/${ns}/gizmos`);
    const specs = Object.fromEntries(
      list.json.items.map((o: { metadata: { name: string }; spec: unknown; apiVersion: string }) => [
        o.metadata.name,
        [o.apiVersion, o.spec],
      ]),
    );
    expect(specs["old-style"]).toEqual([`${group}/v1alpha1`, { colour: "green", size: 3 }]);
    expect(specs.defaulted).toEqual([`${group}/v1alpha1`, { colour: "blue", size: 2 }]);
  });
});

describe("admission of another version (matchPolicy Equivalent)", () => {
  it("a v1alpha1 write reaches the v1 handlers converted: defaulted in its own shape, denied with the message", async () => {
    const path = `${base}/v1alpha1/namespaces/${ns}/gizmos`;
    const created = await t.call("POST", path, gizmo("alpha-defaulted", { size: 1 }, undefined, "v1alpha1"));
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({
      apiVersion: `${group}/v1alpha1`,
      spec: { size: 1, colour: "blue" },
    });
    const denied = await t.call("POST", path, gizmo("alpha-big", { size: 12 }, undefined, "v1alpha1"));
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe(
      `admission webhook "vgizmo.${group}" denied the request: size must be at most 10`,
    );
  });
});

describe("certificate rotation", () => {
  it("after the files change, the API server's next call is served with the new certificate", async () => {
    const ca = createCertificateAuthority("controller-webhook-rotation");
    const issue = () => ca.issue({ commonName: "webhook", ipAddresses: ["127.0.0.1"], usage: "server" });
    const dir = mkdtempSync(join(tmpdir(), "controller-webhook-"));
    const files = {
      certFile: join(dir, "tls.crt"),
      keyFile: join(dir, "tls.key"),
      caFile: join(dir, "ca.crt"),
    };
    const first = issue();
    writeFileSync(files.certFile, first.certPem);
    writeFileSync(files.keyFile, first.keyPem);
    writeFileSync(files.caFile, ca.certPem);
    const called = new Set<string>();
    rotating = new WebhookServer({ port: 0, tls: files, logger: silentLogger });
    rotating.validating(Gizmo, (req) => void called.add(req.name ?? ""), {
      path: "/rotating",
      objectSelector: { matchLabels: { trigger: "rotation" } },
    });
    await rotating.start();
    const servedWith = new Map<string, string | undefined>();
    rotating.server?.on("request", (req) => {
      servedWith.set(req.url ?? "", (req.socket as TLSSocket).getCertificate()?.toString());
    });
    const fingerprints: string[] = [];
    rotating.server?.on("secureConnection", (socket: TLSSocket) => {
      const cert = socket.getCertificate();
      fingerprints.push(cert && "fingerprint256" in cert ? cert.fingerprint256 : "");
    });
    const config = rotating.validatingWebhookConfiguration(rotationName);
    expect((await t.call("POST", admissionPath("validating"), { body: config })).status).toBe(201);
    await untilCalled([called], { trigger: "rotation" });
    const { X509Certificate } = await import("node:crypto");
    expect(fingerprints.at(-1)).toBe(new X509Certificate(first.certPem).fingerprint256);

    const second = issue();
    const reloaded = new Promise<void>((resolve) => rotating.onCertificateReload(() => resolve()));
    writeFileSync(join(dir, "tls.key.new"), second.keyPem);
    writeFileSync(join(dir, "tls.crt.new"), second.certPem);
    renameSync(join(dir, "tls.key.new"), files.keyFile);
    renameSync(join(dir, "tls.crt.new"), files.certFile);
    await reloaded;
    const res = await t.call(
      "POST",
      `${base}/v1/namespaces/${ns}/gizmos`,
      gizmo("after-rotation", {}, { trigger: "rotation" }),
    );
    expect(res.status, res.text).toBe(201);
    expect(called.has("after-rotation")).toBe(true);
    // The idle connection of the old certificate was closed: the call came on a new connection.
    expect(fingerprints.at(-1)).toBe(new X509Certificate(second.certPem).fingerprint256);
  });
});
