import { describe, expect, it } from "vitest";
import { schemaTypesJson } from "../src/generated/schema.js";
import type { RawSchemaNode } from "../src/schema-data.js";
import { LineJsonTypes, recordTypes } from "../src/schema-source.js";

// The line reader must read exactly what parsing the whole generated text reads.
describe("the generated schema read type by type", () => {
  const whole = JSON.parse(schemaTypesJson) as Record<string, RawSchemaNode>;

  it("finds every type, in order, and parses each to the same node", () => {
    const lines = new LineJsonTypes(schemaTypesJson);
    expect(lines.names()).toEqual(Object.keys(whole));
    for (const name of Object.keys(whole)) expect(lines.get(name), name).toEqual(whole[name]);
  });

  it("maps every kind to the same type as the whole text's gvks do", () => {
    const kinds = new LineJsonTypes(schemaTypesJson).kinds();
    expect([...kinds]).toEqual([...recordTypes(whole).kinds()]);
    expect(kinds.get("apps/v1/Deployment")).toBe("io.k8s.api.apps.v1.Deployment");
    expect(kinds.size).toBeGreaterThan(200);
  });

  it("answers undefined for names that are not types, as a record does", () => {
    const lines = new LineJsonTypes(schemaTypesJson);
    for (const name of ["constructor", "__proto__", "io.k8s.api.apps.v1.Nope", ""]) {
      expect(lines.get(name)).toBeUndefined();
      expect(recordTypes(whole).get(name)).toBeUndefined();
    }
  });

  it("reads a one-line and an empty object", () => {
    expect(new LineJsonTypes("{}").names()).toEqual([]);
    const flat = new LineJsonTypes('{"a":{"kind":"struct","gvks":[["g","v","K"]]}}');
    expect(flat.names()).toEqual([]);
    expect(flat.kinds().size).toBe(0);
    const one = new LineJsonTypes('{\n"a":{"kind":"struct","gvks":[["g","v","K"]]}\n}');
    expect(one.get("a")).toEqual({ kind: "struct", gvks: [["g", "v", "K"]] });
    expect([...one.kinds()]).toEqual([["g/v/K", "a"]]);
  });
});
