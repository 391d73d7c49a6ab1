/**
 * Empty maps and lists in a write, as kube-apiserver stores them: it decodes a built-in object into
 * its Go struct, so an empty map or list in an `omitempty` field is gone (and so is its managed
 * field), while a custom resource is stored as sent, empty maps and lists included.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createSimpleCrd, deleteCrd } from "../support/crd.js";
import { useNamespaceSuite } from "../support/namespace-suite.js";
import { type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;

useNamespaceSuite("empty-coll", (target, name) => {
  t = target;
  ns = name;
});

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

const configMaps = () => `/api/v1/namespaces/${ns}/configmaps`;
const fieldSets = (obj: { metadata: { managedFields?: { fieldsV1: unknown }[] } }) =>
  (obj.metadata.managedFields ?? []).map((m) => m.fieldsV1);

describe("empty maps and lists of built-in kinds", () => {
  it("drops a ConfigMap's empty data, binaryData and labels, with no managed fields for them", async () => {
    const body = { metadata: { name: "empty", labels: {} }, data: {}, binaryData: {} };
    const res = await t.call("POST", configMaps(), { body });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toBeUndefined();
    expect(res.json.binaryData).toBeUndefined();
    expect(res.json.metadata.labels).toBeUndefined();
    expect(res.json.metadata.managedFields).toBeUndefined();
    const got = await t.call("GET", `${configMaps()}/empty`);
    expect(Object.keys(got.json).sort()).toEqual(["apiVersion", "kind", "metadata"]);
  });

  it("drops a null data and binaryData, and data emptied by a strategic merge or JSON patch", async () => {
    const body = { metadata: { name: "nulls" }, data: null, binaryData: null };
    const res = await t.call("POST", configMaps(), { body });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.json).sort()).toEqual(["apiVersion", "kind", "metadata"]);
    expect(res.json.metadata.managedFields).toBeUndefined();
    const smp = await t.call("PATCH", `${configMaps()}/nulls`, {
      body: { data: {} },
      contentType: "application/strategic-merge-patch+json",
    });
    expect(smp.status, smp.text).toBe(200);
    expect(smp.json.data).toBeUndefined();
    const jsonPatch = await t.call("PATCH", `${configMaps()}/nulls`, {
      body: [{ op: "add", path: "/data", value: {} }],
      contentType: "application/json-patch+json",
    });
    expect(jsonPatch.status, jsonPatch.text).toBe(200);
    expect(jsonPatch.json.data).toBeUndefined();
  });

  it("keeps an applied empty map in the applier's managed fields, as the applied configuration has it", async () => {
    const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "applied" }, data: {} };
    const res = await t.call("PATCH", `${configMaps()}/applied?fieldManager=m`, {
      body,
      contentType: "application/apply-patch+yaml",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toBeUndefined();
    expect(fieldSets(res.json)).toEqual([{ "f:data": {} }]);
  });

  it("drops data emptied by an update and by a merge patch's empty map", async () => {
    const created = await t.call("POST", configMaps(), {
      body: { metadata: { name: "emptied" }, data: { a: "1" } },
    });
    expect(created.status, created.text).toBe(201);
    const put = await t.call("PUT", `${configMaps()}/emptied`, {
      body: { ...created.json, data: {} },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json.data).toBeUndefined();
    expect(fieldSets(put.json)).toEqual([]);
    const patched = await t.call("PATCH", `${configMaps()}/emptied`, {
      body: { data: { b: "2" } },
      contentType: "application/merge-patch+json",
    });
    expect(patched.json.data).toEqual({ b: "2" });
    const removed = await t.call("PATCH", `${configMaps()}/emptied`, {
      body: { data: { b: null } },
      contentType: "application/merge-patch+json",
    });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json.data).toBeUndefined();
  });

  it("stores a Node's empty taints and podCIDRs as no field", async () => {
    const name = uniqueName("empty-node");
    cleanups.push(() => t.call("DELETE", `/api/v1/nodes/${name}`));
    const res = await t.call("POST", "/api/v1/nodes", {
      body: { metadata: { name }, spec: { taints: [], podCIDRs: [] } },
    });
    expect(res.status, res.text).toBe(201);
    // The TaintNodesByCondition admission plugin taints a new node; podCIDRs stays empty, so gone.
    expect(res.json.spec.podCIDRs).toBeUndefined();
    const put = await t.call("PUT", `/api/v1/nodes/${name}`, { body: { ...res.json, spec: { taints: [] } } });
    expect(put.status, put.text).toBe(200);
    expect(put.json.spec).toEqual({});
  });

  it("drops a pod template's empty tolerations, volumes and env, and keeps non-omitempty fields", async () => {
    const container = { name: "c", image: "nginx", env: [], ports: [], command: [] };
    const template = {
      metadata: { labels: { app: "e" } },
      spec: { containers: [container], tolerations: [], volumes: [], nodeSelector: {}, imagePullSecrets: [] },
    };
    const body = { metadata: { name: "empty" }, spec: { selector: { matchLabels: { app: "e" } }, template } };
    const res = await t.call("POST", `/apis/apps/v1/namespaces/${ns}/deployments`, { body });
    expect(res.status, res.text).toBe(201);
    const podSpec = res.json.spec.template.spec;
    for (const k of ["tolerations", "volumes", "nodeSelector", "imagePullSecrets"])
      expect(podSpec[k]).toBeUndefined();
    const [c] = podSpec.containers;
    expect([c.env, c.ports, c.command]).toEqual([undefined, undefined, undefined]);
    expect(c.name).toBe("c");
  });

  it("drops a headless Service's empty ports and selector", async () => {
    const body = { metadata: { name: "empty" }, spec: { clusterIP: "None", ports: [], selector: {} } };
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/services`, { body });
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec.ports).toBeUndefined();
    expect(res.json.spec.selector).toBeUndefined();
  });
});

describe("empty maps and lists of a custom resource", () => {
  it("keeps them as sent", async () => {
    const group = `${uniqueName("empty")}.example.com`;
    const spec = {
      type: "object",
      properties: {
        tags: { type: "object", additionalProperties: { type: "string" } },
        items: { type: "array", items: { type: "string" } },
      },
    };
    const crd = await createSimpleCrd(t, { group, plural: "boxes", kind: "Box", spec });
    cleanups.push(() => deleteCrd(t, crd));
    const body = {
      apiVersion: `${group}/v1`,
      kind: "Box",
      metadata: { name: "b", labels: {} },
      spec: { tags: {}, items: [] },
    };
    const res = await t.call("POST", `/apis/${group}/v1/namespaces/${ns}/boxes`, { body });
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec).toEqual({ tags: {}, items: [] });
    expect(res.json.metadata.labels).toBeUndefined();
  });
});
