import { describe, expect, it } from "vitest";
import { matchesLabels, parseLabelSelector } from "../src/api/label-selector.js";
import { maskTrailingDash } from "../src/validation/name-formats.js";
import { nameFormatOf, nameRuleFor } from "../src/validation/names.js";

const accepts = (group: string, resource: string, name: string, obj: Record<string, unknown> = {}) =>
  nameFormatOf(nameRuleFor(group, resource), obj)(name, false).length === 0;

// group, resource, name, accepted (kube-apiserver 1.37.1, checked by pnpm diff:server)
const CASES: [string, string, string, boolean][] = [
  ["rbac.authorization.k8s.io", "clusterroles", "system:controller:x", true],
  ["rbac.authorization.k8s.io", "roles", "Upper", true],
  ["rbac.authorization.k8s.io", "roles", "a/b", false],
  ["", "services", "a.b", false],
  ["", "services", "1abc", true],
  ["apps", "statefulsets", "a".repeat(64), false],
  ["apps", "deployments", "a.b", true],
  ["", "configmaps", "Upper", false],
  ["", "namespaces", "a.b", false],
  ["networking.k8s.io", "ipaddresses", "10.1.2.3", true],
  ["networking.k8s.io", "ipaddresses", "10.01.2.3", false],
  ["networking.k8s.io", "ipaddresses", "2001:DB8::1", false],
  ["certificates.k8s.io", "certificatesigningrequests", "Any:Name", true],
];

describe("name rules per kind", () => {
  it.each(CASES)("%s/%s %j accepted: %s", (group, resource, name, ok) => {
    expect(accepts(group, resource, name)).toBe(ok);
  });

  it("ClusterTrustBundles are named after their signer", () => {
    const signed = { spec: { signerName: "test.test/signer-one" } };
    const ctb = (name: string, obj: Record<string, unknown> = {}) =>
      accepts("certificates.k8s.io", "clustertrustbundles", name, obj);
    expect([ctb("test.test:signer-one:0", signed), ctb("other", signed), ctb("a:b"), ctb("plain")]).toEqual([
      true,
      false,
      false,
      true,
    ]);
  });

  it("CronJob names are at most 52 characters", () => {
    const extra = nameRuleFor("batch", "cronjobs").extra;
    expect([extra?.({}, "a".repeat(52)).length, extra?.({}, "a".repeat(53)).length]).toEqual([0, 1]);
  });

  it("masks a trailing dash of a generateName as apimachinery does (two characters become 'a')", () => {
    expect([maskTrailingDash("ab-"), maskTrailingDash("-"), maskTrailingDash("abc")]).toEqual([
      "aa",
      "-",
      "abc",
    ]);
  });
});

describe("label selectors on stored objects", () => {
  it.each([null, "x", 3, ["a"], { app: null }])("treat labels %j as no labels", (labels) => {
    expect([
      matchesLabels(parseLabelSelector("app"), labels),
      matchesLabels(parseLabelSelector("!app"), labels),
    ]).toEqual([false, true]);
  });
});
