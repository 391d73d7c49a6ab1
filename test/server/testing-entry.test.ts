/**
 * `@kubesdk/server/testing`: a test server seeded with typed objects hands out clients of its
 * admin user and closes them when it stops. Reference-only by nature: it starts its own server.
 */
import type { coreV1 } from "@kubesdk/models";
import { startTestServer } from "@kubesdk/server/testing";
import { KubeConfig } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";

describe("@kubesdk/server/testing", () => {
  it("seeds typed objects, gives clients, and closes them on stop", async () => {
    const namespace: coreV1.Namespace = { apiVersion: "v1", kind: "Namespace", metadata: { name: "shop" } };
    const config: coreV1.ConfigMap = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "prices", namespace: "shop" },
      data: { apple: "1" },
    };
    const cluster = await startTestServer({ seed: [namespace, config] });
    const kube = cluster.client({ namespace: "shop" });
    const read = await kube.resource("v1", "ConfigMap").get("prices");
    expect(read.data).toEqual({ apple: "1" });
    expect(kube.namespace).toBe("shop");
    await cluster.stop();
    // The client was closed with the server: a new call fails instead of hanging.
    await expect(kube.resource("v1", "ConfigMap").get("prices")).rejects.toThrow();
  });

  it("rejects seed objects the server would reject, naming them", async () => {
    const bad = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "Not_A_Name" } };
    await expect(startTestServer({ seed: [bad] })).rejects.toThrow(/seed objects rejected/);
  });
  it("gives clients the connection its kubeconfig describes: admin token, its CA, namespace default", async () => {
    const cluster = await startTestServer();
    const kube = cluster.client();
    expect(kube.namespace).toBe("default");
    // The admin may read kube-system's objects, which an anonymous or wrong-CA client could not.
    const sa = await kube.resource("v1", "ServiceAccount").list({ namespace: "kube-system" });
    expect(Array.isArray(sa.items)).toBe(true);
    // The kubeconfig, rendered when first read, resolves to the same server, CA and token.
    const resolved = await KubeConfig.fromYaml(cluster.kubeconfig, "kubeconfig").resolve();
    expect(resolved.server).toBe(cluster.url);
    expect(resolved.namespace).toBe("default");
    expect(resolved.tls.ca?.toString()).toBe(cluster.ca);
    expect(await resolved.auth.credentials()).toMatchObject({ authorization: `Bearer ${cluster.token}` });
    await cluster.stop();
  });
});
