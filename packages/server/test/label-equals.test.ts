/**
 * A selector of label equalities decided inline (filter.ts `hasLabelValues`, used by a replay's
 * loop in watch/replay-join.ts) answers as the filter's own `matches` does, for every kind of
 * stored labels, and only such selectors are offered that way.
 */
import { describe, expect, it } from "vitest";
import { buildFilter, hasLabelValues } from "../src/endpoints/handlers/filter.js";
import type { ServedResource } from "../src/resources/served.js";
import type { StoredObject } from "../src/storage/mvcc.js";

// What buildFilter reads of a resource for label selectors.
const resource = { namespaced: true, fieldLabels: [] } as unknown as ServedResource;
const filterOf = (query: string) => buildFilter(resource, new URLSearchParams(query));

const withMetadata = (metadata: unknown) =>
  ({ apiVersion: "v1", kind: "ConfigMap", metadata }) as StoredObject;
const withLabels = (labels: unknown) => withMetadata({ name: "a", labels });

const OBJECTS: [string, StoredObject][] = [
  ["no labels", withLabels(undefined)],
  ["null labels", withLabels(null)],
  ["labels as an array", withLabels(["app", "bench"])],
  ["labels as a string", withLabels("app=bench")],
  ["app=bench", withLabels({ app: "bench" })],
  ["app=bench, shard=3", withLabels({ app: "bench", shard: "3" })],
  ["app as a number", withLabels({ app: 1, shard: "3" })],
  ["an empty value", withLabels({ app: "", x: "" })],
  ["app=bench inherited", withLabels(Object.create({ app: "bench" }) as unknown)],
  ["no metadata", { apiVersion: "v1", kind: "ConfigMap" } as unknown as StoredObject],
  ["metadata as an array", withMetadata([{ labels: { app: "bench" } }])],
];

const EQUALITIES = [
  "",
  "labelSelector=app%3Dbench",
  "labelSelector=app%3D%3Dbench",
  "labelSelector=app%3Dbench,shard%3D3",
  "labelSelector=shard%3D3,app%3Dbench",
  "labelSelector=app%3D",
  "labelSelector=x%3D",
  "labelSelector=constructor%3Dx",
  "labelSelector=app%3Dbench,app%3Dother",
];

describe("label equalities decided inline", () => {
  it.each(EQUALITIES)("%j: the filter's answer for every object", (query) => {
    const filter = filterOf(query);
    const eq = filter.labelEquals;
    expect(eq).toBeDefined();
    if (eq === undefined) return;
    const inline = OBJECTS.map(([name, obj]) => [name, hasLabelValues(obj, eq)]);
    expect(inline).toEqual(OBJECTS.map(([name, obj]) => [name, filter.matches(obj)]));
  });

  it("matches some objects and not others (the cases above are not all one answer)", () => {
    const eq = filterOf("labelSelector=app%3Dbench").labelEquals;
    if (eq === undefined) throw new Error("app=bench is an equality");
    const matched = OBJECTS.filter(([, obj]) => hasLabelValues(obj, eq)).map(([name]) => name);
    expect(matched).toEqual(["app=bench", "app=bench, shard=3"]);
  });

  it.each([
    "labelSelector=app!%3Dbench",
    "labelSelector=app+in+(bench)",
    "labelSelector=app",
    "labelSelector=!app",
    "labelSelector=app%3Dbench,shard+notin+(3)",
    "fieldSelector=metadata.name%3Da",
    "labelSelector=app%3Dbench&fieldSelector=metadata.name%3Da",
  ])("%j is left to the filter", (query) => {
    expect(filterOf(query).labelEquals).toBeUndefined();
  });
});
