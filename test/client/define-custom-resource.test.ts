/**
 * A custom resource defined in TypeScript (test/client/defined-widget.ts) on a running server: its
 * generated CRD is accepted and becomes Established, its typed client creates valid objects and
 * refuses invalid ones before sending, the server refuses them too, and kubectl explains its fields.
 */
import { type CustomResourceOf, established, isInvalid, isNotFound, waitFor } from "@kubesdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectlFor } from "../support/kubectl.js";
import { uniqueName } from "../support/target.js";
import { widgetDefinition } from "./defined-widget.js";
import { namespacedSuite } from "./support.js";

const suite = namespacedSuite("client-define");
const definition = widgetDefinition(`${uniqueName("def")}.example.com`);
type Widget = CustomResourceOf<typeof definition, "v1">;
const crds = () => suite.kube.resource("apiextensions.k8s.io/v1", "CustomResourceDefinition");

beforeAll(async () => {
  await crds().create(definition.manifest());
  const crd = await waitFor(crds(), definition.name, established(), { timeoutMs: 30_000 });
  expect(crd?.status?.acceptedNames?.kind).toBe("Widget");
});
afterAll(async () => {
  await crds().delete(definition.name);
});

const widget = (name: string, spec: Widget["spec"]): Widget => ({ metadata: { name }, spec });

describe("a custom resource defined in TypeScript", () => {
  it("stores the generated CRD as given: versions, names, subresources, columns and rules", async () => {
    const stored = await crds().get(definition.name);
    expect(stored.spec?.names).toMatchObject({ kind: "Widget", plural: "widgets", shortNames: ["wdg"] });
    expect(stored.spec?.versions?.map((v) => [v.name, v.served, v.storage])).toEqual([
      ["v1alpha1", true, false],
      ["v1", true, true],
    ]);
    const v1 = stored.spec?.versions?.[1];
    expect(v1?.subresources?.scale?.specReplicasPath).toBe(".spec.replicas");
    expect(v1?.additionalPrinterColumns?.map((c) => c.name)).toEqual(["Size", "Color"]);
    expect(v1?.schema?.openAPIV3Schema).toEqual(
      definition.manifest().spec?.versions?.[1]?.schema?.openAPIV3Schema,
    );
  });

  it("creates a valid object through the typed client, filling in apiVersion and kind", async () => {
    const widgets = suite.kube.custom(definition);
    const created = await widgets.create(
      widget("w1", {
        size: 3,
        replicas: 2,
        color: "red",
        port: "http",
        note: null,
        parts: [{ name: "a", count: 1 }],
      }),
    );
    expect(created.apiVersion).toBe(`${definition.group}/v1`);
    expect(created.spec.color).toBe("red");
    expect(created.spec.port).toBe("http");
  });

  it("refuses an invalid object before sending it, naming each field", async () => {
    const widgets = suite.kube.custom(definition);
    const bad = { metadata: { name: "w2" }, spec: { size: 11, color: "pink" } } as unknown as Widget;
    await expect(widgets.create(bad)).rejects.toMatchObject({
      code: "INVALID_OBJECT",
      message: expect.stringMatching(/spec\.size: .*<= 10.*spec\.color: .*allowed values/),
    });
    await expect(widgets.get("w2")).rejects.toSatisfy(isNotFound);
  });

  it("is refused by the server too when sent without the client-side check", async () => {
    const untyped = suite.kube.custom({
      group: definition.group,
      version: "v1",
      plural: definition.plural,
      kind: "Widget",
      namespaced: true,
    });
    const sent = untyped.create({
      apiVersion: `${definition.group}/v1`,
      kind: "Widget",
      metadata: { name: "w3" },
      spec: { size: 11, color: "pink" },
    });
    await expect(sent).rejects.toSatisfy(isInvalid);
  });

  it("carries its CEL rule with its message, which the server enforces", async () => {
    const widgets = suite.kube.custom(definition);
    const overReplicated = widgets.create(widget("w4", { size: 1, replicas: 5 }));
    await expect(overReplicated).rejects.toSatisfy(isInvalid);
    await expect(overReplicated).rejects.toMatchObject({
      message: expect.stringContaining("replicas must not exceed size"),
    });
  });

  it("is explained by kubectl, field by field", async () => {
    const kubectl = kubectlFor(() => suite.t.kubeconfigPath);
    const res = await kubectl("explain", `widgets.${definition.group}.spec`);
    expect(res.stderr).toBe("");
    expect(res.stdout).toMatch(/size\s+<integer>/);
    expect(res.stdout).toContain("How big the widget is.");
    expect(res.stdout).toMatch(/color\s+<string>/);
  });
});
