/**
 * CRDs in the published OpenAPI: `/openapi/v3` has a group/version document for each served version
 * with that version's schema, and `/openapi/v2` has a definition per served version; a version that
 * stops being served leaves the v2 definitions. kube-apiserver republishes asynchronously, so reads are retried.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { CRDS, established, retryUntil } from "./crd-conversion-fixtures.js";

const group = `${uniqueName("oapi")}.kubesdk.example`;
const name = `sprockets.${group}`;
const reversed = group.split(".").reverse().join(".");
const definition = (v: string) => `${reversed}.${v}.Sprocket`;
let t: TestTarget;

const version = (v: string, served: boolean, storage: boolean, field: string) => ({
  name: v,
  served,
  storage,
  schema: {
    openAPIV3Schema: {
      type: "object",
      properties: {
        spec: { type: "object", properties: { [field]: { type: "string", description: `${v} field` } } },
      },
    },
  },
});

beforeAll(async () => {
  t = await startTarget();
  const crd = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name },
    spec: {
      group,
      scope: "Cluster",
      names: { plural: "sprockets", kind: "Sprocket" },
      versions: [
        version("v1", true, true, "teeth"),
        version("v2", true, false, "cogs"),
        version("v3", false, false, "gears"),
      ],
    },
  };
  expect((await t.call("POST", CRDS, { body: crd })).status).toBe(201);
  await established(t, name);
}, 60_000);

afterAll(async () => {
  await t.call("DELETE", `${CRDS}/${name}`);
  await t.close();
});

const v2Definitions = async () => (await t.call("GET", "/openapi/v2")).json.definitions ?? {};

describe("CRDs in OpenAPI", () => {
  it("publishes a v3 document per served version with that version's schema", async () => {
    const index = await retryUntil(
      () => t.call("GET", "/openapi/v3"),
      (r) => `apis/${group}/v2` in (r.json.paths ?? {}),
    );
    expect(Object.keys(index.json.paths)).toEqual(
      expect.arrayContaining([`apis/${group}/v1`, `apis/${group}/v2`]),
    );
    expect(Object.keys(index.json.paths)).not.toContain(`apis/${group}/v3`);
    const doc = await t.call("GET", `/openapi/v3/apis/${group}/v2`);
    const schema = doc.json.components.schemas[definition("v2")];
    expect(schema.properties.spec.properties.cogs).toMatchObject({ type: "string", description: "v2 field" });
    expect(schema["x-kubernetes-group-version-kind"]).toEqual([{ group, kind: "Sprocket", version: "v2" }]);
    expect(doc.json.paths[`/apis/${group}/v2/sprockets/{name}`].get).toBeDefined();
  });

  it("publishes a v2 definition per served version", async () => {
    const defs = await retryUntil(v2Definitions, (d) => definition("v1") in d && definition("v2") in d);
    expect(defs[definition("v1")].properties.spec.properties.teeth).toMatchObject({ type: "string" });
    expect(defs[definition("v2")].properties.spec.properties.cogs).toMatchObject({ type: "string" });
    expect(defs[definition("v1")]["x-kubernetes-group-version-kind"]).toEqual([
      { group, kind: "Sprocket", version: "v1" },
    ]);
    expect(definition("v3") in defs).toBe(false);
    const swagger = (await t.call("GET", "/openapi/v2")).json;
    expect(swagger.swagger).toBe("2.0");
    const read = swagger.paths[`/apis/${group}/v1/sprockets/{name}`].get;
    expect(read.responses["200"].schema.$ref).toBe(`#/definitions/${definition("v1")}`);
  });

  it("drops a version that stops being served from the v2 definitions", async () => {
    const crd = (await t.call("GET", `${CRDS}/${name}`)).json;
    crd.spec.versions[1].served = false;
    expect((await t.call("PUT", `${CRDS}/${name}`, { body: crd })).status).toBe(200);
    const defs = await retryUntil(v2Definitions, (d) => !(definition("v2") in d));
    expect(definition("v2") in defs).toBe(false);
    expect(definition("v1") in defs).toBe(true);
    // The v3 index is not asserted here: kube-apiserver 1.37.1 keeps listing the group/version for
    // a while after its version stops being served (docs/divergences.md CV8).
  });
});
