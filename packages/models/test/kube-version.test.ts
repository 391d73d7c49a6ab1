import { apiVersionOf, compareKubeVersions, parseApiVersion } from "@kubesdk/models";
import { expect, test } from "vitest";

test("Kubernetes version order: GA, then beta, then alpha, newest first; others last by name", () => {
  const versions = [
    "v1alpha1",
    "foo",
    "v1beta1",
    "v2",
    "v1",
    "v11alpha2",
    "v10",
    "v1beta2",
    "bar",
    "v12beta1",
  ];
  expect(versions.sort((a, b) => compareKubeVersions(b, a))).toEqual([
    "v10",
    "v2",
    "v1",
    "v12beta1",
    "v1beta2",
    "v1beta1",
    "v11alpha2",
    "v1alpha1",
    "bar",
    "foo",
  ]);
});

test("apiVersion strings round-trip for core and named groups", () => {
  expect(apiVersionOf({ group: "", version: "v1" })).toBe("v1");
  expect(apiVersionOf({ group: "apps", version: "v1" })).toBe("apps/v1");
  expect(parseApiVersion("v1")).toEqual({ group: "", version: "v1" });
  expect(parseApiVersion("rbac.authorization.k8s.io/v1")).toEqual({
    group: "rbac.authorization.k8s.io",
    version: "v1",
  });
});
