/**
 * A CRD with several served versions and conversion None: one storage version, `status.storedVersions`
 * kept by the server (and the edits of it kube-apiserver refuses), objects presented in each version
 * with only `apiVersion` rewritten, and each version's own schema (validation, pruning, defaults)
 * applied to the requests that use it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { CRDS, established, retryUntil } from "./crd-conversion-fixtures.js";

const group = `${uniqueName("vers")}.kubesdk.example`;
const name = `gadgets.${group}`;
const crdPath = `${CRDS}/${name}`;
let t: TestTarget;
let ns: string;
const base = (v: string) => `/apis/${group}/${v}/namespaces/${ns}/gadgets`;

const version = (v: string, storage: boolean, spec: Record<string, unknown>, served = true) => ({
  name: v,
  served,
  storage,
  schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: spec } } } },
});

const gadgets = () => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name },
  spec: {
    group,
    scope: "Namespaced",
    names: { plural: "gadgets", kind: "Gadget" },
    versions: [
      version("v1", true, {
        size: { type: "integer", maximum: 10 },
        color: { type: "string", default: "red" },
      }),
      version("v2", false, {
        size: { type: "integer", maximum: 100 },
        shape: { type: "string", default: "round" },
      }),
      version("v3", false, { size: { type: "integer" } }, false),
    ],
  },
});

const gadget = (n: string, v: string, spec: Record<string, unknown>) => ({
  apiVersion: `${group}/${v}`,
  kind: "Gadget",
  metadata: { name: n },
  spec,
});

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("vers");
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  const created = await t.call("POST", CRDS, { body: gadgets() });
  expect(created.status).toBe(201);
  expect(created.json.spec.conversion).toEqual({ strategy: "None" });
  expect(created.json.status.storedVersions).toEqual(["v1"]);
  await established(t, name);
  await retryUntil(
    () => t.call("GET", base("v2")),
    (r) => r.status === 200,
  );
}, 60_000);

afterAll(async () => {
  await t.call("DELETE", crdPath);
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("served versions with conversion None", () => {
  it("serves only the served versions", async () => {
    expect((await t.call("GET", base("v1"))).status).toBe(200);
    expect((await t.call("GET", base("v3"))).status).toBe(404);
    const group_ = await t.call("GET", `/apis/${group}`);
    expect(group_.json.versions.map((v: { version: string }) => v.version)).toEqual(["v2", "v1"]);
    expect(group_.json.preferredVersion.version).toBe("v2");
  });

  it("presents an object in each version with only apiVersion rewritten", async () => {
    const created = await t.call("POST", base("v2"), { body: gadget("g1", "v2", { size: 5 }) });
    expect(created.status).toBe(201);
    // The answer is read back from storage (v1): v1's schema decodes it (pruning v2's defaulted
    // field, adding its own default), then v2's schema prunes what v2 does not know.
    expect(created.json.spec).toEqual({ size: 5 });
    const inV1 = await t.call("GET", `${base("v1")}/g1`);
    expect(inV1.json.apiVersion).toBe(`${group}/v1`);
    expect(inV1.json.spec).toEqual({ size: 5, color: "red" });
    expect(inV1.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    const list = await t.call("GET", base("v2"));
    expect(list.json.items.map((i: { apiVersion: string }) => i.apiVersion)).toEqual([`${group}/v2`]);
  });

  it("validates a write against the schema of the version it uses", async () => {
    expect((await t.call("POST", base("v2"), { body: gadget("big", "v2", { size: 50 }) })).status).toBe(201);
    const tooBig = await t.call("POST", base("v1"), { body: gadget("big1", "v1", { size: 50 }) });
    expect(tooBig.status).toBe(422);
    expect(tooBig.json.details.causes[0]).toMatchObject({
      field: "spec.size",
      reason: "FieldValueInvalid",
    });
  });
});

describe("status.storedVersions", () => {
  const editStatus = async (storedVersions: unknown) => {
    const crd = (await t.call("GET", crdPath)).json;
    return t.call("PUT", `${crdPath}/status`, {
      body: { ...crd, status: { ...crd.status, storedVersions } },
    });
  };

  it("takes a status write as it comes; an emptied list gets the storage version", async () => {
    const unchecked = await editStatus(["v2", "v9"]);
    expect(unchecked.status).toBe(200);
    expect(unchecked.json.status.storedVersions).toEqual(["v2", "v9"]);
    const emptied = await editStatus([]);
    expect(emptied.status).toBe(200);
    expect(emptied.json.status.storedVersions).toEqual(["v1"]);
  });

  it("adds a new storage version; a version stays in the spec until a migration drops it", async () => {
    const crd = (await t.call("GET", crdPath)).json;
    crd.spec.versions[0].storage = false;
    crd.spec.versions[1].storage = true;
    const switched = await t.call("PUT", crdPath, { body: crd });
    expect(switched.status).toBe(200);
    expect(switched.json.status.storedVersions).toEqual(["v1", "v2"]);
    const withoutV1 = structuredClone(switched.json);
    withoutV1.spec.versions = withoutV1.spec.versions.filter((v: { name: string }) => v.name !== "v1");
    const refused = await t.call("PUT", crdPath, { body: withoutV1 });
    expect(refused.status).toBe(422);
    expect(refused.json.message).toContain(
      "v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions",
    );
    const migrated = await editStatus(["v2"]);
    expect(migrated.status).toBe(200);
    const latest = (await t.call("GET", crdPath)).json;
    latest.spec.versions = latest.spec.versions.filter((v: { name: string }) => v.name !== "v1");
    const dropped = await t.call("PUT", crdPath, { body: latest });
    expect(dropped.status).toBe(200);
    expect(dropped.json.status.storedVersions).toEqual(["v2"]);
    const twoStorage = structuredClone(dropped.json);
    twoStorage.spec.versions[1].storage = true;
    const two = await t.call("PUT", crdPath, { body: twoStorage });
    expect(two.status).toBe(422);
    expect(two.json.message).toContain("must have exactly one version marked as storage version");
  });
});
