import type { ApiWarning } from "@kubesdk/client";
import type { coreV1 } from "@kubesdk/models";
import { isNotFound } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { namespacedSuite } from "./support.js";

const warnings: ApiWarning[] = [];
const suite = namespacedSuite("client-write", { onWarning: (w) => warnings.push(w) });

const configMaps = () => suite.kube.resource("v1", "ConfigMap");
/** A ConfigMap with a field its schema does not have. */
const withUnknownField = (name: string) =>
  ({ metadata: { name }, data: { a: "1" }, bogus: "x" }) as coreV1.ConfigMap;

describe("dryRun", () => {
  it("runs a create through the pipeline without persisting it", async () => {
    const dry = await configMaps().create({ metadata: { name: "dry" }, data: { a: "1" } }, { dryRun: true });
    expect(dry.metadata?.uid).toBeDefined();
    expect(dry.metadata?.creationTimestamp).toBeDefined();
    expect(dry.metadata?.resourceVersion).toBeUndefined();
    await expect(configMaps().get("dry")).rejects.toSatisfy(isNotFound);
  });

  it("leaves the object unchanged on dry-run replace and patch", async () => {
    const created = await configMaps().create({ metadata: { name: "dry-write" }, data: { a: "1" } });
    const replaced = await configMaps().replace({ ...created, data: { a: "2" } }, { dryRun: true });
    expect(replaced.data).toEqual({ a: "2" });
    const patched = await configMaps().patch(
      "dry-write",
      { type: "merge", patch: { data: { a: "3" } } },
      { dryRun: true },
    );
    expect(patched.data).toEqual({ a: "3" });
    const stored = await configMaps().get("dry-write");
    expect(stored.data).toEqual({ a: "1" });
    expect(stored.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  });
});

describe("fieldValidation", () => {
  it("Strict rejects an unknown field with a 400 naming it", async () => {
    const error = await configMaps()
      .create(withUnknownField("strict"), { fieldValidation: "Strict" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ApiError", statusCode: 400, reason: "BadRequest" });
    expect((error as Error).message).toContain('unknown field "bogus"');
    await expect(configMaps().get("strict")).rejects.toSatisfy(isNotFound);
  });

  it("Warn stores the object without the field and hands the warning to onWarning", async () => {
    warnings.length = 0;
    const created = await configMaps().create(withUnknownField("warn"), { fieldValidation: "Warn" });
    expect(created).not.toHaveProperty("bogus");
    expect(warnings).toEqual([
      { text: 'unknown field "bogus"', method: "POST", path: `/api/v1/namespaces/${suite.ns}/configmaps` },
    ]);
  });

  it("Ignore drops the field silently", async () => {
    warnings.length = 0;
    const created = await configMaps().create(withUnknownField("ignore"), { fieldValidation: "Ignore" });
    expect(created).not.toHaveProperty("bogus");
    expect(warnings).toEqual([]);
  });

  it("applies to patches as well", async () => {
    await configMaps().create({ metadata: { name: "patched" } });
    const error = await configMaps()
      .patch("patched", { type: "merge", patch: { bogus: "x" } as never }, { fieldValidation: "Strict" })
      .catch((e: unknown) => e);
    // For patches upstream reports the strict decoding error as 422 Invalid on the field "patch".
    expect(error).toMatchObject({ statusCode: 422, reason: "Invalid" });
    expect((error as Error).message).toContain('unknown field "bogus"');
  });
});
