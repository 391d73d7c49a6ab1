/**
 * The example WebApp operator, on both targets, from its one `defineCustomResource` definition:
 * the CRD's CEL rule refuses with its message, objects written in either version read back in the
 * other through the operator's conversion webhook, its defaulting and validating webhooks act,
 * and the reconcile converges (controlled Deployment and Service, conditions, re-creation of a
 * deleted object, finalizer). Last, the example program itself runs against the same server with
 * `--kubeconfig` and `--once`.
 *
 * Both parts register the same cluster-wide CRD and webhook configurations, so they run in order
 * in this one file: the program's run starts after the in-process operator stopped.
 */
import type { Kube } from "@kubesdk/client";
import { Manager, silentLogger, type WebhookServer } from "@kubesdk/controller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebAppController, FINALIZER } from "../../examples/operator/operator.js";
import {
  API_VERSION,
  KIND,
  SCALE_RULE_MESSAGE,
  type WebApp,
  webAppDefinition,
  webApps,
} from "../../examples/operator/webapp.js";
import {
  createWebAppWebhooks,
  registerWebAppWebhooks,
  unregisterWebAppWebhooks,
} from "../../examples/operator/webhooks.js";
import { startTarget, type TestTarget } from "../support/target.js";
import { runOperatorProgram, untilWebhooksAct, webAppPath } from "./operator-support.js";
import { clientOf, createNamespace, deferred, waitForObject } from "./support.js";

let t: TestTarget;
let kube: Kube;

beforeAll(async () => {
  t = await startTarget();
  kube = await clientOf(t);
});

afterAll(async () => {
  await kube?.close();
  await t?.close();
});

describe("example operator", () => {
  let ns: string;
  let manager: Manager;
  let webhooks: WebhookServer;
  const cleanupStarted = deferred<string>();
  const releaseCleanup = deferred();
  const path = (version: string, name = "") => webAppPath(ns, version, name);

  beforeAll(async () => {
    ns = await createNamespace(kube, "operator");
    manager = new Manager({ kube, logger: silentLogger });
    createWebAppController(manager, {
      namespace: ns,
      logger: silentLogger,
      beforeCleanup: async (app) => {
        if (app.metadata?.name !== "shop") return;
        cleanupStarted.resolve(app.metadata.name);
        await releaseCleanup.promise;
      },
    });
    const address = { port: 0 };
    webhooks = createWebAppWebhooks(manager, address);
    await webhooks.start();
    await registerWebAppWebhooks(kube, webhooks, address);
    await manager.start();
    await untilWebhooksAct(t, ns);
  });

  afterAll(async () => {
    releaseCleanup.resolve();
    // Delete what is left while the operator runs, so its finalizer is taken off.
    for (const name of ["old-style", "new-style", "defaulted", "defaulted-alpha"]) {
      await webApps(kube)
        .delete(name, { namespace: ns })
        .catch(() => {});
      await waitForObject(webApps(kube), ns, name, (a) => a === undefined);
    }
    await unregisterWebAppWebhooks(kube);
    await manager?.stop();
    await kube
      ?.resource("v1", "Namespace")
      .delete(ns)
      .catch(() => {});
  });

  const reconciled = (app: WebApp | undefined) =>
    app?.status?.conditions?.some((c) => c.type === "Reconciled" && c.status === "True") === true;

  it("the CRD's CEL rule refuses a bad object with its message, in either version", async () => {
    for (const [version, spec] of [
      ["v1", { image: "nginx:1.27", replicas: 11, http: { port: 80 } }],
      ["v1alpha1", { image: "nginx:1.27", replicas: 11, port: 80 }],
    ] as const) {
      const res = await t.call("POST", path(version), {
        body: {
          apiVersion: `${webAppDefinition.group}/${version}`,
          kind: KIND,
          metadata: { name: "big" },
          spec,
        },
      });
      expect(res.status, res.text).toBe(422);
      expect(res.json).toMatchObject({
        reason: "Invalid",
        message: `${KIND}.${webAppDefinition.group} "big" is invalid: spec: Invalid value: ${SCALE_RULE_MESSAGE}`,
        details: { causes: [{ reason: "FieldValueInvalid", field: "spec" }] },
      });
    }
    const pinned = await t.call("POST", `${path("v1")}?dryRun=All`, {
      body: {
        apiVersion: API_VERSION,
        kind: KIND,
        metadata: { name: "big" },
        spec: { image: `nginx@sha256:${"a".repeat(64)}`, replicas: 11 },
      },
    });
    expect(pinned.status, pinned.text).toBe(201);
  });

  it("an object written as v1alpha1 reads back as v1, and one written as v1 as v1alpha1", async () => {
    const alpha = kube.custom(webAppDefinition, "v1alpha1");
    await alpha.create(
      { metadata: { name: "old-style" }, spec: { image: "nginx:1.27", replicas: 2, port: 9000 } },
      { namespace: ns },
    );
    const asV1 = await webApps(kube).get("old-style", { namespace: ns });
    expect(asV1).toMatchObject({ apiVersion: API_VERSION, spec: { replicas: 2, http: { port: 9000 } } });
    expect(asV1.spec).not.toHaveProperty("port");

    await webApps(kube).create(
      { metadata: { name: "new-style" }, spec: { image: "nginx:1.27", replicas: 1, http: { port: 7000 } } },
      { namespace: ns },
    );
    const asAlpha = await alpha.get("new-style", { namespace: ns });
    expect(asAlpha).toMatchObject({ apiVersion: `${webAppDefinition.group}/v1alpha1`, spec: { port: 7000 } });
    expect(asAlpha.spec).not.toHaveProperty("http");
    const listed = await alpha.list({ namespace: ns });
    expect(Object.fromEntries(listed.items.map((a) => [a.metadata?.name, a.spec.port]))).toMatchObject({
      "old-style": 9000,
      "new-style": 7000,
    });
  });

  it("the defaulting webhook fills replicas and port, for an object written in either version", async () => {
    await webApps(kube).create(
      { metadata: { name: "defaulted" }, spec: { image: "nginx:1.27" } },
      { namespace: ns },
    );
    const stored = await webApps(kube).get("defaulted", { namespace: ns });
    expect(stored.spec).toEqual({ image: "nginx:1.27", replicas: 1, http: { port: 8080 } });
    // Registered for v1 (matchPolicy Equivalent): a v1alpha1 write reaches it converted, and back.
    const alpha = await kube
      .custom(webAppDefinition, "v1alpha1")
      .create({ metadata: { name: "defaulted-alpha" }, spec: { image: "nginx:1.27" } }, { namespace: ns });
    expect(alpha.spec).toEqual({ image: "nginx:1.27", replicas: 1, port: 8080 });
    expect(alpha.metadata?.generation).toBe(1);
  });

  it("the validating webhook refuses an image tagged latest with its message, in either version", async () => {
    for (const version of ["v1", "v1alpha1"]) {
      const res = await t.call("POST", path(version), {
        body: {
          apiVersion: `${webAppDefinition.group}/${version}`,
          kind: KIND,
          metadata: { name: "floating" },
          spec: { image: "nginx:latest" },
        },
      });
      expect(res.status, res.text).toBe(403);
      expect(res.json.message).toBe(
        `admission webhook "vwebapp.${webAppDefinition.group}" denied the request: spec.image "nginx:latest": name a tag other than latest, or a digest`,
      );
    }
    expect((await t.call("GET", path("v1", "floating"))).status).toBe(404);
  });

  it("applies a controlled Deployment and Service and reports conditions", async () => {
    const app: WebApp = {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: { name: "shop", namespace: ns },
      spec: { image: "nginx:1.27", replicas: 3, http: { port: 9000 } },
    };
    await webApps(kube).create(app, { namespace: ns });
    const done = await waitForObject(webApps(kube), ns, "shop", reconciled);
    expect(done?.metadata?.finalizers).toContain(FINALIZER);
    expect(done?.status?.observedGeneration).toBe(done?.metadata?.generation);
    const available = done?.status?.conditions?.find((c) => c.type === "Available");
    expect(available).toMatchObject({ status: "False", reason: "ReplicasUnavailable" });
    expect(available?.lastTransitionTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const deployment = await kube.resource("apps/v1", "Deployment").get("shop", { namespace: ns });
    expect(deployment.spec?.replicas).toBe(3);
    expect(deployment.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: KIND, name: "shop", uid: done?.metadata?.uid, controller: true }),
    ]);
    const service = await kube.resource("v1", "Service").get("shop", { namespace: ns });
    expect(service.spec?.ports?.[0]).toMatchObject({ port: 80, targetPort: 9000 });
  });

  it("re-creates an owned Deployment that was deleted", async () => {
    const deployments = kube.resource("apps/v1", "Deployment");
    const before = await deployments.get("shop", { namespace: ns });
    await deployments.delete("shop", { namespace: ns });
    const after = await waitForObject(
      deployments,
      ns,
      "shop",
      (d) => d !== undefined && d.metadata?.uid !== before.metadata?.uid,
    );
    expect(after?.spec?.replicas).toBe(3);
  });

  it("follows a spec change (generation) to the Deployment", async () => {
    await webApps(kube).patch("shop", { type: "merge", patch: { spec: { replicas: 5 } } }, { namespace: ns });
    const d = await waitForObject(
      kube.resource("apps/v1", "Deployment"),
      ns,
      "shop",
      (x) => x?.spec?.replicas === 5,
    );
    expect(d?.spec?.replicas).toBe(5);
  });

  it("holds deletion with the finalizer until cleanup ran, then the WebApp and its objects are gone", async () => {
    await webApps(kube).delete("shop", { namespace: ns });
    expect(await cleanupStarted.promise).toBe("shop");
    const held = await webApps(kube).get("shop", { namespace: ns });
    expect(held.metadata?.deletionTimestamp).toBeDefined();
    expect(held.metadata?.finalizers).toContain(FINALIZER);
    releaseCleanup.resolve();
    expect(await waitForObject(webApps(kube), ns, "shop", (a) => a === undefined)).toBeUndefined();
    expect(
      await waitForObject(kube.resource("apps/v1", "Deployment"), ns, "shop", (d) => d === undefined),
    ).toBeUndefined();
    expect(
      await waitForObject(kube.resource("v1", "Service"), ns, "shop", (s) => s === undefined),
    ).toBeUndefined();
  });
});

describe("example operator program (pnpm example:operator -- --kubeconfig <this server>)", () => {
  it("installs the CRD, registers its webhooks at --webhook-host, converges the sample and cleans up", async () => {
    const ns = await createNamespace(kube, "operator-program");
    const run = await runOperatorProgram([
      "--kubeconfig",
      t.kubeconfigPath,
      "--namespace",
      ns,
      "--once",
      "--port",
      "0",
      "--webhook-port",
      "0",
      "--webhook-host",
      "localhost",
    ]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/registered at https:\/\/localhost:\d+ /);
    // Written as v1alpha1 without replicas: defaulted by the program's webhook, stored as v1.
    const printed = (label: string) => {
      const prefix = `WebApp ${ns}/hello read as ${label}: `;
      const line = run.output.split("\n").find((l) => l.startsWith(prefix));
      return line === undefined ? undefined : JSON.parse(line.slice(prefix.length));
    };
    expect(printed("v1")).toEqual({ image: "nginx:1.27", http: { port: 8080 }, replicas: 1 });
    expect(printed("v1alpha1")).toEqual({ image: "nginx:1.27", port: 8080, replicas: 1 });
    expect(run.output).toContain(`WebApp ${ns}/hello deleted after the operator's cleanup`);
    const crd = await kube
      .resource("apiextensions.k8s.io/v1", "CustomResourceDefinition")
      .get(webAppDefinition.name);
    expect(crd.spec?.conversion?.webhook?.clientConfig?.url).toMatch(/^https:\/\/localhost:\d+\/convert$/);
    const configs = await t.call(
      "GET",
      "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/webapp-operator",
    );
    expect(configs.status).toBe(404);
  }, 120_000);
});
