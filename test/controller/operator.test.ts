/**
 * The example WebApp operator converges: it applies a Deployment and a Service it controls,
 * reports conditions through the status subresource, re-creates an owned object that was
 * deleted, and holds the WebApp's deletion with its finalizer until its cleanup ran.
 */
import type { Kube } from "@kubesdk/client";
import { Manager, silentLogger } from "@kubesdk/controller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebAppController, FINALIZER } from "../../examples/operator/operator.js";
import { API_VERSION, installWebAppCrd, KIND, type WebApp, webApps } from "../../examples/operator/webapp.js";
import { startTarget, type TestTarget } from "../support/target.js";
import { clientOf, createNamespace, deferred, waitForObject } from "./support.js";

describe("example operator", () => {
  let t: TestTarget;
  let kube: Kube;
  let ns: string;
  let manager: Manager;
  const cleanupStarted = deferred<string>();
  const releaseCleanup = deferred();

  beforeAll(async () => {
    t = await startTarget();
    kube = await clientOf(t);
    await installWebAppCrd(kube);
    ns = await createNamespace(kube, "operator");
    manager = new Manager({ kube, logger: silentLogger });
    createWebAppController(manager, {
      namespace: ns,
      logger: silentLogger,
      beforeCleanup: async (app) => {
        cleanupStarted.resolve(app.metadata?.name ?? "");
        await releaseCleanup.promise;
      },
    });
    await manager.start();
  });

  afterAll(async () => {
    releaseCleanup.resolve();
    await manager?.stop();
    await kube
      ?.resource("v1", "Namespace")
      .delete(ns)
      .catch(() => {});
    await kube?.close();
    await t?.close();
  });

  const reconciled = (app: WebApp | undefined) =>
    app?.status?.conditions?.some((c) => c.type === "Reconciled" && c.status === "True") === true;

  it("applies a controlled Deployment and Service and reports conditions", async () => {
    const app: WebApp = {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: { name: "shop", namespace: ns },
      spec: { image: "nginx:1.27", replicas: 3, port: 9000 },
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
