import { ModelsError, type ResourceInfo, ResourceRegistry, registry } from "@kubesdk/models";
import { describe, expect, test } from "vitest";
import { errorOf } from "./wire/helpers.js";

const widget: ResourceInfo = {
  group: "example.com",
  version: "v1",
  kind: "Widget",
  listKind: "WidgetList",
  plural: "widgets",
  singular: "widget",
  namespaced: true,
  verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
  subresources: [{ name: "status", kind: "Widget", verbs: ["get", "patch", "update"] }],
  shortNames: ["wd"],
  categories: ["all"],
};

const modelsErrorOf = (run: () => unknown): ModelsError => errorOf(run, ModelsError);

describe("built-in registry", () => {
  test("lookup by kind gives the resource with its discovery data", () => {
    const deployments = registry.lookup({ group: "apps", version: "v1", kind: "Deployment" });
    expect(deployments).toMatchObject({
      plural: "deployments",
      singular: "deployment",
      listKind: "DeploymentList",
      namespaced: true,
      shortNames: ["deploy"],
      categories: ["all"],
    });
    expect(deployments?.verbs).toEqual([
      "create",
      "delete",
      "deletecollection",
      "get",
      "list",
      "patch",
      "update",
      "watch",
    ]);
    expect(deployments?.subresources).toContainEqual({
      name: "scale",
      kind: "Scale",
      group: "autoscaling",
      version: "v1",
      verbs: ["get", "patch", "update"],
    });
    expect(registry.lookup({ group: "apps", version: "v1", kind: "NoSuchKind" })).toBeUndefined();
  });

  test("byResource finds by plural", () => {
    expect(registry.byResource({ group: "", version: "v1", resource: "configmaps" })?.kind).toBe("ConfigMap");
    expect(registry.byResource({ group: "apps", version: "v1", resource: "pods" })).toBeUndefined();
  });

  test("resolve accepts short names, singulars, kinds and qualified names like kubectl", () => {
    expect(registry.resolve("po")).toMatchObject({ group: "", plural: "pods" });
    expect(registry.resolve("deploy")).toMatchObject({ group: "apps", version: "v1", plural: "deployments" });
    expect(registry.resolve("deployments.apps")).toMatchObject({ group: "apps", plural: "deployments" });
    expect(registry.resolve("deployments.v1.apps")).toMatchObject({ group: "apps", version: "v1" });
    expect(registry.resolve("Pod").plural).toBe("pods");
    expect(registry.resolve("crd").kind).toBe("CustomResourceDefinition");
    // The core group comes first in discovery, so plain "events" is the core one.
    expect(registry.resolve("events").group).toBe("");
    expect(registry.resolve("events.events.k8s.io").group).toBe("events.k8s.io");
    expect(registry.resolve("events", { group: "events.k8s.io" }).group).toBe("events.k8s.io");
  });

  test("resolve prefers the group's preferred version", () => {
    expect(registry.resolve("hpa")).toMatchObject({ group: "autoscaling", version: "v2" });
    expect(registry.resolve("hpa", { version: "v1" })).toMatchObject({ group: "autoscaling", version: "v1" });
  });

  test("resolve rejects unknown names with a typed error", () => {
    const error = modelsErrorOf(() => registry.resolve("nosuchthing"));
    expect(error.code).toBe("UNKNOWN_RESOURCE");
    expect(error.message).toContain('"nosuchthing"');
    expect(modelsErrorOf(() => registry.resolve("pods", { group: "apps" })).code).toBe("UNKNOWN_RESOURCE");
  });

  test("pods carry the subresources upstream serves", () => {
    const pods = registry.resolve("pods");
    const names = pods.subresources.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(["status", "log", "exec", "eviction", "binding"]));
    expect(pods.subresources.find((s) => s.name === "exec")).toMatchObject({
      kind: "PodExecOptions",
      verbs: ["create", "get"],
    });
    expect(pods.subresources.find((s) => s.name === "eviction")).toMatchObject({
      group: "policy",
      version: "v1",
    });
  });

  test("scope comes from the paths", () => {
    expect(registry.resolve("ns")).toMatchObject({ kind: "Namespace", namespaced: false });
    expect(registry.resolve("nodes").namespaced).toBe(false);
    expect(registry.resolve("cm").namespaced).toBe(true);
    expect(registry.resolve("clusterroles").namespaced).toBe(false);
  });

  test("resources that cannot be listed have no listKind and only create", () => {
    const reviews = registry.resolve("tokenreviews");
    expect(reviews.listKind).toBeUndefined();
    expect(reviews.verbs).toEqual(["create"]);
  });

  test("leases are served in coordination.k8s.io/v1", () => {
    const leases = registry.byResource({ group: "coordination.k8s.io", version: "v1", resource: "leases" });
    expect(leases).toMatchObject({ kind: "Lease", namespaced: true });
    expect(registry.resourcesFor("coordination.k8s.io", "v1").map((r) => r.plural)).toContain("leases");
  });

  test("groups list versions with the preferred one first", () => {
    const groups = registry.groups();
    expect(groups[0]).toMatchObject({ group: "", preferredVersion: "v1" });
    expect(groups.find((g) => g.group === "autoscaling")).toMatchObject({
      versions: ["v2", "v1"],
      preferredVersion: "v2",
    });
    const resource = groups.find((g) => g.group === "resource.k8s.io");
    expect(resource?.preferredVersion).toBe("v1");
    expect(resource?.versions.at(-1)).toMatch(/alpha/);
    for (const name of ["apiextensions.k8s.io", "apiregistration.k8s.io"]) {
      expect(groups.find((g) => g.group === name)?.preferredVersion).toBe("v1");
    }
  });

  test("CRDs and APIServices are registered", () => {
    expect(registry.resolve("crds")).toMatchObject({ group: "apiextensions.k8s.io", namespaced: false });
    expect(registry.resolve("apiservices")).toMatchObject({
      group: "apiregistration.k8s.io",
      kind: "APIService",
    });
  });

  test("category all holds the workload kinds in preferred versions", () => {
    const all = registry.byCategory("all").map((r) => `${r.group}/${r.plural}`);
    expect(all).toEqual(expect.arrayContaining(["/pods", "/services", "apps/deployments", "batch/jobs"]));
    expect(all.filter((r) => r === "autoscaling/horizontalpodautoscalers")).toHaveLength(1);
  });
});

describe("registry.with", () => {
  test("adds custom resources and leaves the original registry alone", () => {
    const extended = registry.with([widget]);
    expect(extended.resolve("wd")).toEqual(widget);
    expect(extended.lookup({ group: "example.com", version: "v1", kind: "Widget" })?.plural).toBe("widgets");
    expect(extended.groups().at(-1)).toMatchObject({ group: "example.com", preferredVersion: "v1" });
    expect(() => registry.resolve("wd")).toThrow(ModelsError);
    expect(extended.all().length).toBe(registry.all().length + 1);
  });

  test("orders added versions the Kubernetes way and replaces same-named entries", () => {
    const v1alpha1 = { ...widget, version: "v1alpha1" };
    const v2beta1 = { ...widget, version: "v2beta1" };
    const extended = registry.with([v1alpha1, widget, v2beta1]);
    expect(extended.groups().find((g) => g.group === "example.com")?.versions).toEqual([
      "v1",
      "v2beta1",
      "v1alpha1",
    ]);
    const replaced = extended.with([{ ...widget, shortNames: ["wdg"] }]);
    expect(replaced.resolve("wdg").version).toBe("v1");
    expect(replaced.resourcesFor("example.com", "v1")).toHaveLength(1);
  });

  test("without drops resources", () => {
    const extended = registry.with([widget]).without((r) => r.group === "example.com");
    expect(extended.groups().some((g) => g.group === "example.com")).toBe(false);
  });

  test("rejects malformed entries with a typed error naming the field", () => {
    const error = modelsErrorOf(() =>
      registry.with([{ ...widget, namespaced: "yes" } as unknown as ResourceInfo]),
    );
    expect(error.code).toBe("INVALID_RESOURCE_INFO");
    expect(error.message).toContain("namespaced");
    expect(modelsErrorOf(() => registry.with([{ ...widget, plural: "Widgets" }])).message).toContain(
      "plural",
    );
  });

  test("an empty registry is usable", () => {
    const empty = new ResourceRegistry([]);
    expect(empty.groups()).toEqual([]);
    expect(empty.lookup({ group: "", version: "v1", kind: "Pod" })).toBeUndefined();
  });
});
