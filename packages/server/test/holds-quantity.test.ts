import { schemaFor } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import { holdsQuantity } from "../src/openapi/quantities.js";

const kind = (group: string, version: string, k: string) => schemaFor({ group, version, kind: k });

describe("holdsQuantity, which spares the quantities walk for kinds without any", () => {
  it("finds quantities however deep they sit, in structs, lists and maps", () => {
    expect(holdsQuantity(kind("", "v1", "Pod"))).toBe(true);
    expect(holdsQuantity(kind("apps", "v1", "Deployment"))).toBe(true);
    expect(holdsQuantity(kind("", "v1", "ResourceQuota"))).toBe(true);
    expect(holdsQuantity(kind("", "v1", "PersistentVolumeClaim"))).toBe(true);
  });

  it("answers no for kinds that hold none", () => {
    expect(holdsQuantity(kind("", "v1", "ConfigMap"))).toBe(false);
    expect(holdsQuantity(kind("", "v1", "Secret"))).toBe(false);
    expect(holdsQuantity(kind("rbac.authorization.k8s.io", "v1", "Role"))).toBe(false);
  });

  it("ends on a recursive type and answers the same when asked again", () => {
    const crd = kind("apiextensions.k8s.io", "v1", "CustomResourceDefinition");
    const first = holdsQuantity(crd);
    expect(holdsQuantity(crd)).toBe(first);
  });
});
