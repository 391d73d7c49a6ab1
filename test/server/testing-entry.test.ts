/**
 * `@kubesdk/server/testing`: a test server seeded with typed objects hands out clients of its
 * admin user and closes them when it stops. Reference-only by nature: it starts its own server.
 */
import type { coreV1 } from "@kubesdk/models";
import { startTestServer } from "@kubesdk/server/testing";
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
});
