/**
 * `kubesdk gen types --from-cluster` on both targets: the CLI reads the CustomResourceDefinitions of
 * the cluster its kubeconfig names and writes types and definitions for every served version of
 * them, with the schema's descriptions as doc comments.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineCustomResource, established, Kube } from "@kubesdk/client";
import Type from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../packages/kubesdk/src/cli.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

const group = `${uniqueName("gen")}.kubesdk.test`;
const Sprocket = defineCustomResource({
  group,
  kind: "Sprocket",
  scope: "Namespaced",
  versions: {
    v1beta1: { schema: Type.Object({ spec: Type.Object({ teeth: Type.Integer() }) }) },
    v1: {
      storage: true,
      schema: Type.Object({
        spec: Type.Object({ teeth: Type.Integer({ description: "How many teeth the sprocket has." }) }),
      }),
    },
  },
});

let t: TestTarget;
let kube: Kube;

beforeAll(async () => {
  t = await startTarget();
  kube = await Kube.fromKubeconfig({ kubeconfig: { path: t.kubeconfigPath } });
  const crds = kube.resource("apiextensions.k8s.io/v1", "CustomResourceDefinition");
  await crds.create(Sprocket.manifest());
  await kube.waitFor(crds, Sprocket.name, established());
});

afterAll(async () => {
  await kube
    ?.resource("apiextensions.k8s.io/v1", "CustomResourceDefinition")
    .delete(Sprocket.name)
    .catch(() => {});
  await kube?.close();
  await t?.close();
});

describe("kubesdk gen types --from-cluster", () => {
  it("writes the served versions of the cluster's CRDs with their descriptions", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "kubesdk-gen-")), "cluster.ts");
    const code = await main(["gen", "types", "--from-cluster", "--kubeconfig", t.kubeconfigPath, "-o", out]);
    expect(code).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).toContain(`group: "${group}"`);
    expect(text).toContain('kind: "Sprocket"');
    expect(text).toMatch(/v1beta1:/);
    expect(text).toMatch(/\bv1:/);
    expect(text).toContain("How many teeth the sprocket has.");
    expect(text).toContain("the cluster's CRDs");
  });

  it("refuses files together with --from-cluster, with the usage", async () => {
    expect(await main(["gen", "types", "--from-cluster", "crds.yaml"])).toBe(2);
  });
});
