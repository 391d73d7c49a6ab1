/**
 * What the published OpenAPI says of a custom resource, where upstream's CustomResourcePublishOpenAPI
 * conformance tests and `kubectl explain` look: the kind's definition (the schema with apiVersion,
 * kind and metadata added, the group-version-kind), the list kind, v2's reduced form (a root open to
 * unknown fields published as a bare object; unknown fields, nullable values and anyOf without the
 * structure kubectl would check) and v3's full one (int-or-string's anyOf, embedded resources' type
 * and object meta). The texts of the descriptions the server adds are each server's own words: only
 * their presence is compared. kube-apiserver republishes asynchronously, so reads are retried.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectlFor } from "../support/kubectl.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { CRDS, established, retryUntil } from "./crd-conversion-fixtures.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;

const suffix = uniqueName("shapes");
const groupOf = (g: string) => `${g}.${suffix}.example.com`;
const defName = (g: string, v: string, kind: string) =>
  `${groupOf(g).split(".").reverse().join(".")}.${v}.${kind}`;
const text = expect.any(String);
const META = "io.k8s.apimachinery.pkg.apis.meta.v1";
let t: TestTarget;

const BAR = {
  type: "object",
  required: ["name", "maybe"],
  properties: {
    name: { description: "Name of Bar.", type: "string" },
    maybe: { type: "string", nullable: true },
    open: {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      properties: { a: { type: "string" } },
    },
    port: { "x-kubernetes-int-or-string": true },
    embedded: {
      type: "object",
      "x-kubernetes-embedded-resource": true,
      properties: { spec: { type: "object" } },
    },
    either: { type: "string", anyOf: [{ pattern: "a" }, { pattern: "b" }] },
  },
};
const FOO_SCHEMA = {
  description: "Foo CRD for Testing",
  type: "object",
  properties: {
    spec: {
      type: "object",
      description: "Specification of Foo",
      properties: { bars: { description: "List of Bars.", type: "array", items: BAR } },
    },
  },
};
const OPEN_SCHEMA = { type: "object", "x-kubernetes-preserve-unknown-fields": true };

function crd(g: string, kind: string, plural: string, schema: Json): Json {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${groupOf(g)}` },
    spec: {
      group: groupOf(g),
      scope: "Namespaced",
      names: { plural, kind },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}
const CRD_LIST = [crd("foo", "Foo", "foos", FOO_SCHEMA), crd("open", "Open", "opens", OPEN_SCHEMA)];

beforeAll(async () => {
  t = await startTarget();
  for (const c of CRD_LIST) {
    const res = await t.call("POST", CRDS, { body: c });
    expect(res.status, res.text).toBe(201);
    await established(t, c.metadata.name);
  }
}, 60_000);

afterAll(async () => {
  for (const c of CRD_LIST) await t.call("DELETE", `${CRDS}/${c.metadata.name}`);
  await t.close();
});

const typeMeta = {
  apiVersion: { description: text, type: "string" },
  kind: { description: text, type: "string" },
};
const gvk = (g: string, kind: string) => [{ group: groupOf(g), kind, version: "v1" }];

/** The list kind's definition; `ref` is how its items and metadata reference types. */
const listOf = (g: string, kind: string, ref: (name: string) => Json): Json => ({
  description: `${kind}List is a list of ${kind}`,
  properties: {
    ...typeMeta,
    items: { description: text, items: ref(defName(g, "v1", kind)).refOnly, type: "array" },
    metadata: { ...ref(`${META}.ListMeta`).withDescription },
  },
  required: ["items"],
  type: "object",
  "x-kubernetes-group-version-kind": gvk(g, `${kind}List`),
});
const v2Ref = (name: string) => ({
  refOnly: { $ref: `#/definitions/${name}` },
  withDescription: { $ref: `#/definitions/${name}`, description: text },
});
const v3Ref = (name: string) => ({
  refOnly: { $ref: `#/components/schemas/${name}` },
  withDescription: { allOf: [{ $ref: `#/components/schemas/${name}` }], description: text },
});

async function v2Definitions(): Promise<Json> {
  const names = [defName("foo", "v1", "Foo"), defName("open", "v1", "Open")];
  const doc = await retryUntil(
    () => t.call("GET", "/openapi/v2"),
    (r) => names.every((n) => n in (r.json.definitions ?? {})),
  );
  return doc.json.definitions;
}

/** The v3 document's schemas of group `g`, once its kind is published there. */
async function v3Schemas(g: string, kind: string): Promise<Json> {
  const doc = await retryUntil(
    () => t.call("GET", `/openapi/v3/apis/${groupOf(g)}/v1`),
    (r) => r.status === 200 && defName(g, "v1", kind) in (r.json.components?.schemas ?? {}),
  );
  return doc.json.components.schemas;
}

describe("custom resources in OpenAPI as kube-apiserver publishes them", () => {
  it("v2: the kind with type meta, object meta and its schema reduced for kubectl; the list", async () => {
    const defs = await v2Definitions();
    const foo = defs[defName("foo", "v1", "Foo")];
    expect(foo).toEqual({
      description: "Foo CRD for Testing",
      type: "object",
      properties: {
        ...typeMeta,
        metadata: v2Ref(`${META}.ObjectMeta`).withDescription,
        spec: {
          type: "object",
          description: "Specification of Foo",
          properties: {
            bars: {
              description: "List of Bars.",
              type: "array",
              items: {
                type: "object",
                required: ["name"],
                properties: {
                  name: { description: "Name of Bar.", type: "string" },
                  maybe: {},
                  open: { "x-kubernetes-preserve-unknown-fields": true },
                  port: { "x-kubernetes-int-or-string": true },
                  embedded: {
                    type: "object",
                    "x-kubernetes-embedded-resource": true,
                    required: ["kind", "apiVersion"],
                    properties: {
                      spec: { type: "object" },
                      ...typeMeta,
                      metadata: v2Ref(`${META}.ObjectMeta`).withDescription,
                    },
                  },
                  either: { type: "string" },
                },
              },
            },
          },
        },
      },
      "x-kubernetes-group-version-kind": gvk("foo", "Foo"),
    });
    expect(defs[defName("foo", "v1", "FooList")]).toEqual(listOf("foo", "Foo", v2Ref));
  });

  it("v2: a schema open to unknown fields at its root is published as a bare object", async () => {
    const defs = await v2Definitions();
    expect(defs[defName("open", "v1", "Open")]).toEqual({
      type: "object",
      "x-kubernetes-group-version-kind": gvk("open", "Open"),
    });
    expect(defs[defName("open", "v1", "OpenList")]).toEqual(listOf("open", "Open", v2Ref));
  });

  it("v3: the schema whole, with int-or-string's anyOf and an embedded resource's meta", async () => {
    const schemas = await v3Schemas("foo", "Foo");
    const foo = schemas[defName("foo", "v1", "Foo")];
    expect(foo.properties.metadata).toEqual(v3Ref(`${META}.ObjectMeta`).withDescription);
    expect(foo.properties.apiVersion).toEqual(typeMeta.apiVersion);
    const bar = foo.properties.spec.properties.bars.items;
    expect(bar.required).toEqual(["name", "maybe"]);
    expect(bar.properties.maybe).toEqual({ type: "string", nullable: true });
    expect(bar.properties.open).toEqual(BAR.properties.open);
    expect(bar.properties.port).toEqual({
      "x-kubernetes-int-or-string": true,
      anyOf: [{ type: "integer" }, { type: "string" }],
    });
    expect(bar.properties.either).toEqual(BAR.properties.either);
    expect(bar.properties.embedded).toEqual({
      ...BAR.properties.embedded,
      required: ["kind", "apiVersion"],
      properties: {
        spec: { type: "object" },
        ...typeMeta,
        metadata: v3Ref(`${META}.ObjectMeta`).withDescription,
      },
    });
    expect(schemas[defName("foo", "v1", "FooList")]).toEqual(listOf("foo", "Foo", v3Ref));
    expect((await v3Schemas("open", "Open"))[defName("open", "v1", "Open")]).toEqual({
      ...OPEN_SCHEMA,
      properties: { ...typeMeta, metadata: v3Ref(`${META}.ObjectMeta`).withDescription },
      "x-kubernetes-group-version-kind": gvk("open", "Open"),
    });
  });

  it("kubectl explain prints the schema's descriptions and the added fields", async () => {
    // kubectl explain reads the v3 documents.
    await v3Schemas("foo", "Foo");
    await v3Schemas("open", "Open");
    const kubectl = kubectlFor(() => t.kubeconfigPath);
    const foo = await kubectl("explain", `foos.${groupOf("foo")}`);
    expect(foo.stdout).toMatch(
      /DESCRIPTION:.*Foo CRD for Testing.*FIELDS:.*apiVersion.*<string>.*kind.*<string>.*metadata.*<ObjectMeta>.*spec.*<Object>.*Specification of Foo/s,
    );
    const meta = await kubectl("explain", `foos.${groupOf("foo")}.metadata`);
    expect(meta.stdout).toMatch(
      /DESCRIPTION:.*Standard object's metadata.*FIELDS:.*creationTimestamp\s+<string>\s+CreationTimestamp is a timestamp/s,
    );
    const bars = await kubectl("explain", `foos.${groupOf("foo")}.spec.bars`);
    expect(bars.stdout).toMatch(
      /bars.*<\[\]Object>.*DESCRIPTION:.*List of Bars\..*FIELDS:.*name.*<string>.*Name of Bar\./s,
    );
    const missing = await kubectl("explain", `foos.${groupOf("foo")}.spec.bars2`);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('field "bars2" does not exist');
    const open = await kubectl("explain", `opens.${groupOf("open")}`);
    expect(open.stdout).toMatch(/KIND:\s+Open.*DESCRIPTION:\s+<empty>/s);
  });
});
