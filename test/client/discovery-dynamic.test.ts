import { isNotFound } from "@kubesdk/transport";
import { afterAll, describe, expect, it, vi } from "vitest";
import { uniqueName } from "../support/target.js";
import { createEstablishedCrd, deleteCrd, namespacedSuite } from "./support.js";

const names = { group: `${uniqueName("dyn")}.example.com`, plural: "dyngadgets", kind: "DynGadget" };
// Plural and kind are used by no other suite: a bare-plural lookup must not find another suite's CRD on a shared server.
const suite = namespacedSuite("client-dyn");

afterAll(async () => {
  await deleteCrd(suite.kube, names).catch((e: unknown) => {
    if (!isNotFound(e)) throw e;
  });
});

describe("dynamic client through discovery", () => {
  it("finds a built-in by apiVersion and kind and serves plain objects", async () => {
    const configMaps = await suite.kube.discover({ apiVersion: "v1", kind: "ConfigMap" });
    expect(configMaps.target).toMatchObject({
      group: "",
      version: "v1",
      plural: "configmaps",
      namespaced: true,
      builtin: true,
    });
    const created = await configMaps.create({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "dyn" },
    });
    expect(created.metadata?.namespace).toBe(suite.ns);
    expect((await configMaps.get("dyn")).metadata?.uid).toBe(created.metadata?.uid);
  });

  it("resolves kubectl-style names and keeps what it fetched", async () => {
    const byShortName = await suite.kube.discover("deploy");
    expect(byShortName.target).toMatchObject({
      group: "apps",
      plural: "deployments",
      subresources: expect.arrayContaining(["scale", "status"]),
    });
    const fetched = suite.kube.discovery.fetchCount;
    const qualified = await suite.kube.discover("deployments.apps");
    expect(qualified.target.plural).toBe("deployments");
    expect(await suite.kube.discover({ apiVersion: "apps/v1", kind: "Deployment" })).toBeDefined();
    expect(suite.kube.discovery.fetchCount).toBe(fetched);
  });

  it("refetches a group version once on a miss before failing", async () => {
    await suite.kube.discover({ apiVersion: "v1", kind: "ConfigMap" });
    const fetched = suite.kube.discovery.fetchCount;
    await expect(suite.kube.discover({ apiVersion: "v1", kind: "NoSuchKind" })).rejects.toMatchObject({
      code: "UNKNOWN_RESOURCE",
    });
    expect(suite.kube.discovery.fetchCount).toBe(fetched + 1);
  });

  it("finds a CRD created after the cache was filled", async () => {
    const apiVersion = `${names.group}/v1`;
    // Fill the cache while the kind does not exist yet.
    await expect(suite.kube.discover({ apiVersion, kind: "DynGadget" })).rejects.toMatchObject({
      code: "UNKNOWN_RESOURCE",
    });
    await expect(suite.kube.discover("dyngadgets")).rejects.toMatchObject({ code: "UNKNOWN_RESOURCE" });

    await createEstablishedCrd(suite.kube, names);
    // kube-apiserver publishes a CRD in discovery shortly after Established, from another controller;
    // no event announces it, so the test waits for the server (not the client's cache) to show it.
    await vi.waitFor(
      async () => {
        const res = await suite.t.call("GET", `/apis/${apiVersion}`);
        expect(res.status).toBe(200);
      },
      { timeout: 10_000, interval: 50 },
    );

    const byKind = await suite.kube.discover({ apiVersion, kind: "DynGadget" });
    expect(byKind.target).toMatchObject({
      group: names.group,
      plural: "dyngadgets",
      namespaced: true,
      builtin: false,
    });
    const byName = await suite.kube.discover("dyngadgets");
    expect(byName.target.plural).toBe("dyngadgets");

    const created = await byKind.create({
      apiVersion,
      kind: "DynGadget",
      metadata: { name: "g1" },
      spec: { size: 1 },
    } as never);
    expect(created).toMatchObject({
      apiVersion,
      kind: "DynGadget",
      metadata: { name: "g1", namespace: suite.ns },
    });
    const listed = await byName.list();
    expect(listed.items.map((i) => i.metadata?.name)).toEqual(["g1"]);
  });
});
