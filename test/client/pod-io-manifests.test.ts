/**
 * Manifests: multi-document YAML and JSON loaded from a directory, applied with server-side apply in
 * dependency order (namespace and CRD before the objects that need them), applied again without
 * changes, and pruned by label. Runs against both targets: nothing here needs a kubelet.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  applyManifests,
  type Kube,
  loadManifests,
  orderManifests,
  PodIoError,
  parseManifests,
} from "@kubesdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { clientFor } from "./support.js";

const ns = uniqueName("manifests");
const group = `${uniqueName("m")}.kubesdk.example`;
const crd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `gadgets.${group}` },
  spec: {
    group,
    scope: "Namespaced",
    names: { plural: "gadgets", singular: "gadget", kind: "Gadget" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: { spec: { type: "object", properties: { size: { type: "integer" } } } },
          },
        },
      },
    ],
  },
};
const configMap = (name: string, value: string) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: ns },
  data: { value },
});

/** A manifest directory whose files list dependents before what they depend on. */
function writeManifests(dir: string, configMaps: readonly string[]): void {
  mkdirSync(join(dir, "nested"), { recursive: true });
  const gadget = {
    apiVersion: `${group}/v1`,
    kind: "Gadget",
    metadata: { name: "g1", namespace: ns },
    spec: { size: 3 },
  };
  writeFileSync(join(dir, "a-gadget.yaml"), YAML.stringify(gadget));
  writeFileSync(
    join(dir, "b-config.yaml"),
    configMaps.map((n) => YAML.stringify(configMap(n, n))).join("---\n"),
  );
  writeFileSync(join(dir, "nested", "crd.json"), JSON.stringify(crd));
  writeFileSync(
    join(dir, "z-namespace.yml"),
    `# the namespace\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`,
  );
  writeFileSync(join(dir, "README.md"), "not a manifest");
}

describe("manifests", () => {
  let t: TestTarget;
  let kube: Kube;
  beforeAll(async () => {
    t = await startTarget();
    kube = await clientFor(t);
  });
  afterAll(async () => {
    await kube
      .resource("v1", "Namespace")
      .delete(ns)
      .catch(() => undefined);
    await kube
      .resource("apiextensions.k8s.io/v1", "CustomResourceDefinition")
      .delete(crd.metadata.name)
      .catch(() => undefined);
    await kube.close();
    await t.close();
  });

  it("loads a directory recursively and orders namespaces and CRDs first", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kubesdk-manifests-"));
    writeManifests(dir, ["one", "two"]);
    const objects = await loadManifests(dir);
    expect(objects.map((o) => o.kind)).toEqual([
      "Gadget",
      "ConfigMap",
      "ConfigMap",
      "CustomResourceDefinition",
      "Namespace",
    ]);
    expect(orderManifests(objects).map((o) => o.kind)).toEqual([
      "Namespace",
      "CustomResourceDefinition",
      "ConfigMap",
      "ConfigMap",
      "Gadget",
    ]);
  });

  it("applies a directory, changes nothing the second time, and prunes by label", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kubesdk-manifests-"));
    writeManifests(dir, ["one", "two"]);
    const options = {
      fieldManager: "kubesdk-manifests",
      prune: { labels: { "app.kubernetes.io/part-of": "demo" } },
    };
    const first = await applyManifests(kube, await loadManifests(dir), options);
    expect(first.applied.map((o) => o.kind)).toEqual([
      "Namespace",
      "CustomResourceDefinition",
      "ConfigMap",
      "ConfigMap",
      "Gadget",
    ]);
    const second = await applyManifests(kube, await loadManifests(dir), options);
    // The CRD's status changes after its apply (Established), so compare with the stored objects.
    const stored = await Promise.all(
      first.applied.map(async (o) => {
        const client = await kube.discover({ apiVersion: o.apiVersion as string, kind: o.kind as string });
        const namespace = o.metadata?.namespace;
        return (await client.get(o.metadata?.name as string, namespace ? { namespace } : {})).metadata
          ?.resourceVersion;
      }),
    );
    expect(second.applied.map((o) => o.metadata?.resourceVersion)).toEqual(stored);
    expect(second.pruned).toEqual([]);

    const smaller = mkdtempSync(join(tmpdir(), "kubesdk-manifests-"));
    writeManifests(smaller, ["one"]);
    const third = await applyManifests(kube, await loadManifests(smaller), options);
    expect(third.pruned).toEqual([`ConfigMap/${ns}/two`]);
    const left = await kube
      .resource("v1", "ConfigMap")
      .list({ namespace: ns, labelSelector: options.prune.labels });
    expect(left.items.map((c) => c.metadata?.name)).toEqual(["one"]);
  });

  it("rejects documents without apiVersion, kind or name with MANIFEST_INVALID", async () => {
    expect(() => parseManifests("kind: ConfigMap\nmetadata: {name: x}\n", "inline")).toThrow(
      /inline document 1: apiVersion is missing/,
    );
    expect(() => parseManifests("apiVersion: v1\nkind: ConfigMap\n---\n- 1\n")).toThrow(PodIoError);
    expect(
      parseManifests(
        "---\n# empty\n---\napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Secret, metadata: {name: s}}\n",
      ),
    ).toHaveLength(1);
    await expect(loadManifests(join(tmpdir(), "kubesdk-no-such-dir"))).rejects.toMatchObject({
      code: "MANIFEST_INVALID",
    });
  });
});
