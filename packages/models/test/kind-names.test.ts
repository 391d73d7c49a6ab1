/** generated/kind-names.ts: every built-in resource kind by its bare name, one version each. */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { builtinResources } from "../src/generated/resources.js";

const text = readFileSync(new URL("../src/generated/kind-names.ts", import.meta.url), "utf8");
const blocks = [...text.matchAll(/export type \{([^}]*)\} from "\.\/types\/([^"]+)\.js";/g)];
const moduleOf = new Map<string, string>();
for (const [, names, module] of blocks) {
  for (const name of (names as string).split(",").map((n) => n.trim())) {
    if (name) moduleOf.set(name.split(" as ").pop() as string, module as string);
  }
}

describe("kind names", () => {
  test("every resource kind has a bare name, exported once", () => {
    const exported = blocks.flatMap(([, names]) => (names as string).split(",").filter((n) => n.trim()));
    expect(new Set(exported).size).toBe(exported.length);
    for (const r of builtinResources) expect(moduleOf.has(r.kind), r.kind).toBe(true);
  });

  test("stable over beta over alpha, core before other groups", () => {
    expect(moduleOf.get("Event")).toBe("core.v1");
    expect(moduleOf.get("HorizontalPodAutoscaler")).toBe("autoscaling.v2");
    expect(moduleOf.get("ResourceClaim")).toBe("resource.v1");
    expect(moduleOf.get("Eviction")).toBe("policy.v1");
    expect(moduleOf.get("Scale")).toBe("autoscaling.v1");
    expect(moduleOf.get("Status")).toBe("meta.v1");
  });

  test("a list kind is the list of the same version, or absent", () => {
    expect(moduleOf.get("PodList")).toBe("core.v1");
    expect(moduleOf.get("EventList")).toBe("core.v1");
    expect(moduleOf.has("EvictionList")).toBe(false);
  });

  test("the rule is stated in the file", () => {
    expect(text).toContain("stable (v1, v2) over beta over alpha");
  });
});
