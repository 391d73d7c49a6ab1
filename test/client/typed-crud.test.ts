import type { Kube } from "@kubesdk/client";
import type { coreV1 } from "@kubesdk/models";
import { isAlreadyExists, isConflict, isNotFound } from "@kubesdk/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, createNamespace, deleteNamespace, namespacedSuite, testDeployment } from "./support.js";

// The context's namespace becomes the default for every call below that names none.
const suite = namespacedSuite("client-crud");
let admin: Kube;

beforeAll(async () => {
  admin = await clientFor(suite.t);
});
afterAll(async () => {
  await admin.close();
});

describe("namespace defaulting", () => {
  it("takes the default namespace from the kubeconfig context", async () => {
    expect(suite.kube.namespace).toBe(suite.ns);
    const created = await suite.kube.resource("v1", "ConfigMap").create({ metadata: { name: "defaulted" } });
    expect(created.metadata?.namespace).toBe(suite.ns);
  });

  it("uses 'default' when the context names no namespace", () => {
    expect(admin.namespace).toBe("default");
  });
});

describe("configmaps", () => {
  const configMaps = () => suite.kube.resource("v1", "ConfigMap");

  it("creates, reads, replaces and deletes", async () => {
    const created = await configMaps().create({ metadata: { name: "cm1" }, data: { a: "1" } });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    const got: coreV1.ConfigMap = await configMaps().get("cm1");
    expect(got.data).toEqual({ a: "1" });
    expect(got.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);

    const replaced = await configMaps().replace({ ...got, data: { a: "2" } });
    expect(replaced.data).toEqual({ a: "2" });
    expect(replaced.metadata?.resourceVersion).not.toBe(got.metadata?.resourceVersion);

    await configMaps().delete("cm1");
    await expect(configMaps().get("cm1")).rejects.toSatisfy(isNotFound);
  });

  it("surfaces API failures as typed ApiErrors", async () => {
    await configMaps().create({ metadata: { name: "dup" } });
    const duplicate = await configMaps()
      .create({ metadata: { name: "dup" } })
      .catch((e: unknown) => e);
    expect(isAlreadyExists(duplicate)).toBe(true);
    expect(duplicate).toMatchObject({ statusCode: 409, reason: "AlreadyExists" });

    const stale = await configMaps().get("dup");
    await configMaps().replace({ ...stale, data: { b: "1" } });
    await expect(configMaps().replace({ ...stale, data: { b: "2" } })).rejects.toSatisfy(isConflict);
  });

  it("lists with label selectors in either form, filling in the items' apiVersion and kind", async () => {
    await configMaps().create({ metadata: { name: "sel-a", labels: { tier: "a" } } });
    await configMaps().create({ metadata: { name: "sel-b", labels: { tier: "b" } } });
    const byText = await configMaps().list({ labelSelector: "tier=a" });
    const byRecord = await configMaps().list({ labelSelector: { tier: "a" } });
    expect(byText.items.map((c) => c.metadata?.name)).toEqual(["sel-a"]);
    expect(byRecord.items.map((c) => c.metadata?.name)).toEqual(["sel-a"]);
    // A real server sends list items without apiVersion/kind; the client fills them in.
    expect(byText.items[0]).toMatchObject({ apiVersion: "v1", kind: "ConfigMap" });
    const all = await configMaps().list({ fieldSelector: "metadata.name=sel-b" });
    expect(all.items.map((c) => c.metadata?.name)).toEqual(["sel-b"]);
  });

  it("addresses other namespaces explicitly and all namespaces on request", async () => {
    const other = await createNamespace(admin, "client-crud-other");
    try {
      await configMaps().create(
        { metadata: { name: "elsewhere", labels: { spread: "yes" } } },
        { namespace: other },
      );
      await expect(configMaps().get("elsewhere")).rejects.toSatisfy(isNotFound);
      expect((await configMaps().get("elsewhere", { namespace: other })).metadata?.namespace).toBe(other);
      await configMaps().create({ metadata: { name: "here", labels: { spread: "yes" } } });
      const everywhere = await configMaps().list({ allNamespaces: true, labelSelector: "spread=yes" });
      expect(everywhere.items.map((c) => `${c.metadata?.namespace}/${c.metadata?.name}`).sort()).toEqual(
        [`${suite.ns}/here`, `${other}/elsewhere`].sort(),
      );
    } finally {
      await deleteNamespace(admin, other);
    }
  });
});

describe("deployments", () => {
  const deployments = () => suite.kube.resource("apps/v1", "Deployment");

  it("creates, reads, replaces and deletes", async () => {
    const created = await deployments().create(testDeployment("web"));
    expect(created.spec.replicas).toBe(1);
    const got = await deployments().get("web");
    expect(got.spec.template.spec?.containers[0]?.image).toBe("nginx:1.27");
    got.spec.template.spec = { containers: [{ name: "main", image: "nginx:1.28" }] };
    const replaced = await deployments().replace(got);
    expect(replaced.spec.template.spec?.containers[0]?.image).toBe("nginx:1.28");
    expect(replaced.metadata?.generation).toBe(2);
    await deployments().delete("web");
    await expect(deployments().get("web")).rejects.toSatisfy(isNotFound);
  });
});

describe("pods", () => {
  const pods = () => suite.kube.resource("v1", "Pod");

  it("creates, reads and deletes", async () => {
    // A real server's ServiceAccount admission needs the namespace's default account; without a
    // controller-manager nobody creates it, so the test does.
    await suite.kube
      .resource("v1", "ServiceAccount")
      .create({ metadata: { name: "default" } })
      .catch((e: unknown) => {
        if (!isAlreadyExists(e)) throw e;
      });
    const created = await pods().create({
      metadata: { name: "p1", labels: { app: "p" } },
      spec: { automountServiceAccountToken: false, containers: [{ name: "c", image: "busybox:1.36" }] },
    });
    expect(created.metadata?.namespace).toBe(suite.ns);
    const got = await pods().get("p1");
    expect(got.spec?.containers.map((c) => c.name)).toEqual(["c"]);
    // An unscheduled pod is deleted at once (no kubelet has to confirm), on both servers.
    await pods().delete("p1", { gracePeriodSeconds: 0 });
    await expect(pods().get("p1")).rejects.toSatisfy(isNotFound);
  });
});
