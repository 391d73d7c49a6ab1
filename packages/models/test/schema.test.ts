import {
  builtinSchemas,
  fieldOf,
  itemOf,
  listSemantics,
  ModelsError,
  mapSemantics,
  SchemaIndex,
  schemaFor,
  type TypeNode,
  typeNode,
} from "@kubesdk/models";
import { describe, expect, test } from "vitest";

function walk(node: TypeNode | undefined, ...path: string[]): TypeNode {
  let current = node;
  for (const step of path) {
    if (!current) break;
    current = step === "[]" ? itemOf(current) : fieldOf(current, step);
  }
  if (!current) throw new Error(`no schema at ${path.join(".")}`);
  return current;
}

const pod = schemaFor({ group: "", version: "v1", kind: "Pod" });
const deployment = schemaFor({ group: "apps", version: "v1", kind: "Deployment" });

describe("schema metadata", () => {
  test("kinds resolve to their named types", () => {
    expect(pod?.name).toBe("io.k8s.api.core.v1.Pod");
    expect(pod?.kind).toBe("struct");
    expect(deployment?.required).toEqual(["spec"]);
    expect(schemaFor({ group: "example.com", version: "v1", kind: "Widget" })).toBeUndefined();
  });

  test("pod spec.containers is a list map keyed by name, merged by name", () => {
    const containers = walk(pod, "spec", "containers");
    expect(containers).toMatchObject({
      kind: "list",
      listType: "map",
      listMapKeys: ["name"],
      patchStrategy: "merge",
      patchMergeKey: "name",
    });
    expect(listSemantics(containers)).toEqual({ type: "map", keys: ["name"] });
    const container = walk(containers, "[]");
    expect(container.name).toBe("io.k8s.api.core.v1.Container");
    expect(walk(container, "image")).toMatchObject({ kind: "scalar", scalar: "string" });
  });

  test("metadata.finalizers is a set and metadata.labels a granular map", () => {
    const finalizers = walk(pod, "metadata", "finalizers");
    expect(finalizers.listType).toBe("set");
    expect(listSemantics(finalizers).type).toBe("set");
    const labels = walk(pod, "metadata", "labels");
    expect(labels.kind).toBe("map");
    expect(mapSemantics(labels)).toBe("granular");
    expect(walk(labels, "any-key")).toMatchObject({ kind: "scalar", scalar: "string" });
  });

  test("a deployment's replicas is a scalar; its strategy carries the site's retainKeys", () => {
    expect(walk(deployment, "spec", "replicas")).toMatchObject({
      kind: "scalar",
      scalar: "integer",
      format: "int32",
    });
    const strategy = walk(deployment, "spec", "strategy");
    expect(strategy).toMatchObject({ kind: "struct", name: "io.k8s.api.apps.v1.DeploymentStrategy" });
    expect(strategy.patchStrategy).toBe("retainKeys");
    // The named type itself has no patch strategy; only the reference site does.
    expect(typeNode("io.k8s.api.apps.v1.DeploymentStrategy")?.patchStrategy).toBeUndefined();
  });

  test("a service port's targetPort is int-or-string", () => {
    const service = schemaFor({ group: "", version: "v1", kind: "Service" });
    const targetPort = walk(service, "spec", "ports", "[]", "targetPort");
    expect(targetPort).toMatchObject({ kind: "scalar", scalar: "int-or-string", marker: "int-or-string" });
  });

  test("special scalars are marked", () => {
    expect(walk(pod, "metadata", "creationTimestamp").marker).toBe("time");
    const event = schemaFor({ group: "events.k8s.io", version: "v1", kind: "Event" });
    expect(walk(event, "eventTime").marker).toBe("micro-time");
    expect(walk(pod, "spec", "containers", "[]", "resources", "limits", "cpu").marker).toBe("quantity");
    const secret = schemaFor({ group: "", version: "v1", kind: "Secret" });
    expect(walk(secret, "data", "key").marker).toBe("bytes");
  });

  test("untyped subtrees stay walkable: maps granular, lists atomic", () => {
    const fieldsV1 = walk(pod, "metadata", "managedFields", "[]", "fieldsV1");
    expect(fieldsV1.kind).toBe("untyped");
    expect(walk(fieldsV1, "f:spec", "f:containers").kind).toBe("untyped");
    expect(listSemantics(walk(fieldsV1, "list")).type).toBe("atomic");
    const crd = schemaFor({ group: "apiextensions.k8s.io", version: "v1", kind: "CustomResourceDefinition" });
    const schema = walk(crd, "spec", "versions", "[]", "schema", "openAPIV3Schema");
    expect(schema.name).toBe("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps");
    expect(walk(schema, "properties", "spec", "properties", "replicas").name).toBe(schema.name);
  });

  test("legacy patch strategies without list-type fall back to the old rules", () => {
    expect(listSemantics(walk(pod, "spec", "volumes")).type).toBe("map");
    // A merge key on a schema without list-type still means a keyed map.
    expect(
      listSemantics({ ...walk(pod, "spec", "volumes"), listType: undefined, listMapKeys: undefined }),
    ).toEqual({
      type: "map",
      keys: ["name"],
    });
    expect(listSemantics(walk(pod, "spec", "containers", "[]", "args")).type).toBe("atomic");
  });

  test("struct map-type atomic is reported", () => {
    expect(mapSemantics(walk(deployment, "spec", "selector"))).toBe("atomic");
    expect(mapSemantics(walk(deployment, "spec", "template"))).toBe("granular");
  });

  test("unknown fields and foreign nodes", () => {
    expect(fieldOf(walk(pod, "spec"), "noSuchField")).toBeUndefined();
    expect(itemOf(walk(pod, "spec"))).toBeUndefined();
    expect(() => fieldOf({ ...walk(pod, "spec") }, "containers")).toThrow(ModelsError);
  });

  test("every reference in the generated data resolves", () => {
    const index = builtinSchemas();
    const seen = new Set<TypeNode>();
    const pending = index.typeNames().map((name) => index.typeNode(name));
    while (pending.length > 0) {
      const node = pending.pop();
      if (!node || seen.has(node)) continue;
      seen.add(node);
      pending.push(...node.fieldNames.map((name) => fieldOf(node, name)));
      if (node.kind === "map") pending.push(fieldOf(node, "any"));
      if (node.kind === "list") pending.push(itemOf(node));
    }
    expect(seen.size).toBeGreaterThan(index.typeNames().length);
    expect(index.typeNames().length).toBeGreaterThan(800);
  });

  test("an index over other data reports dangling references", () => {
    const index = new SchemaIndex({ A: { kind: "struct", fields: { b: { ref: "Missing" } } } });
    const a = index.typeNode("A") as TypeNode;
    expect(() => fieldOf(a, "b")).toThrow(/unknown type Missing/);
  });
});
