import { isStatus } from "@kubesdk/client";
import { isConflict, isNotFound } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { namespacedSuite } from "./support.js";

const suite = namespacedSuite("client-delete");

const configMaps = () => suite.kube.resource("v1", "ConfigMap");

describe("delete", () => {
  it("answers a completed delete with a success Status", async () => {
    const created = await configMaps().create({ metadata: { name: "plain" } });
    const result = await configMaps().delete("plain", {
      propagationPolicy: "Background",
      gracePeriodSeconds: 0,
    });
    expect(isStatus(result)).toBe(true);
    if (isStatus(result)) expect(result.details?.uid).toBe(created.metadata?.uid);
    await expect(configMaps().get("plain")).rejects.toSatisfy(isNotFound);
  });

  it("refuses to delete when the uid precondition does not match", async () => {
    const created = await configMaps().create({ metadata: { name: "pre-uid" } });
    const wrong = await configMaps()
      .delete("pre-uid", { preconditions: { uid: "00000000-0000-0000-0000-000000000000" } })
      .catch((e: unknown) => e);
    expect(isConflict(wrong)).toBe(true);
    expect((await configMaps().get("pre-uid")).metadata?.uid).toBe(created.metadata?.uid);
    await configMaps().delete("pre-uid", { preconditions: { uid: created.metadata?.uid as string } });
    await expect(configMaps().get("pre-uid")).rejects.toSatisfy(isNotFound);
  });

  it("refuses to delete a modified object under a resourceVersion precondition", async () => {
    const created = await configMaps().create({ metadata: { name: "pre-rv" }, data: { a: "1" } });
    await configMaps().patch("pre-rv", { type: "merge", patch: { data: { a: "2" } } });
    const stale = await configMaps()
      .delete("pre-rv", { preconditions: { resourceVersion: created.metadata?.resourceVersion as string } })
      .catch((e: unknown) => e);
    expect(isConflict(stale)).toBe(true);
    const current = await configMaps().get("pre-rv");
    await configMaps().delete("pre-rv", {
      preconditions: { resourceVersion: current.metadata?.resourceVersion as string },
    });
    await expect(configMaps().get("pre-rv")).rejects.toSatisfy(isNotFound);
  });

  it("keeps the object under dryRun, also when the options travel in the body", async () => {
    const created = await configMaps().create({ metadata: { name: "dry" } });
    await configMaps().delete("dry", { dryRun: true });
    await configMaps().delete("dry", {
      dryRun: true,
      preconditions: { uid: created.metadata?.uid as string },
    });
    expect((await configMaps().get("dry")).metadata?.uid).toBe(created.metadata?.uid);
  });

  it("returns the object while finalizers hold it, and it goes once they are removed", async () => {
    await configMaps().create({ metadata: { name: "held", finalizers: ["example.com/hold"] } });
    const result = await configMaps().delete("held");
    expect(isStatus(result)).toBe(false);
    if (!isStatus(result)) expect(result.metadata?.deletionTimestamp).toBeDefined();
    await configMaps().patch("held", { type: "merge", patch: { metadata: { finalizers: null } } });
    await expect(configMaps().get("held")).rejects.toSatisfy(isNotFound);
  });
});

describe("deleteCollection", () => {
  it("deletes exactly the objects matching the selector", async () => {
    for (const name of ["batch-1", "batch-2", "batch-3"]) {
      await configMaps().create({ metadata: { name, labels: { batch: "yes" } } });
    }
    await configMaps().create({ metadata: { name: "keep", labels: { batch: "no" } } });
    const result = await configMaps().deleteCollection({ labelSelector: { batch: "yes" } });
    // Both servers answer with the list of what was deleted.
    expect(isStatus(result)).toBe(false);
    if (!isStatus(result)) {
      expect(result.items.map((c) => c.metadata?.name).sort()).toEqual(["batch-1", "batch-2", "batch-3"]);
    }
    const left = await configMaps().list({ labelSelector: "batch" });
    expect(left.items.map((c) => c.metadata?.name)).toEqual(["keep"]);
  });

  it("deletes nothing under dryRun", async () => {
    await configMaps().create({ metadata: { name: "dry-batch", labels: { drybatch: "yes" } } });
    await configMaps().deleteCollection({ labelSelector: "drybatch=yes", dryRun: true });
    expect((await configMaps().list({ labelSelector: "drybatch=yes" })).items).toHaveLength(1);
  });
});
