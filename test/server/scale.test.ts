/**
 * The scale subresource of apps/v1 workloads (and replicationcontrollers):
 * autoscaling/v1 Scale objects whose writes change only the parent's
 * spec.replicas, with the parent's conflicts and upstream's validation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;

const podTemplate = (app: string) => ({
  metadata: { labels: { app, tier: "a" } },
  spec: { containers: [{ name: "c", image: "nginx" }] },
});
const deployment = (name: string, replicas = 2) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name },
  spec: {
    replicas,
    selector: {
      matchLabels: { app: name },
      matchExpressions: [{ key: "tier", operator: "In", values: ["b", "a"] }],
    },
    template: podTemplate(name),
  },
});
const apps = (resource: string) => `/apis/apps/v1/namespaces/${ns}/${resource}`;

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("scale");
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("scale subresource", () => {
  it("is listed in discovery for the workloads that have it", async () => {
    const apps = (await t.call("GET", "/apis/apps/v1")).json.resources;
    for (const r of ["deployments/scale", "replicasets/scale", "statefulsets/scale"])
      expect(apps.find((x: { name: string }) => x.name === r)).toMatchObject({
        group: "autoscaling",
        version: "v1",
        kind: "Scale",
        verbs: ["get", "patch", "update"],
      });
    expect(apps.find((x: { name: string }) => x.name === "daemonsets/scale")).toBeUndefined();
  });

  it("reads a Deployment's Scale with its selector as a string", async () => {
    const created = (await t.call("POST", apps("deployments"), { body: deployment("d1") })).json;
    const res = await t.call("GET", `${apps("deployments")}/d1/scale`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      kind: "Scale",
      apiVersion: "autoscaling/v1",
      metadata: {
        name: "d1",
        namespace: ns,
        uid: created.metadata.uid,
        resourceVersion: created.metadata.resourceVersion,
        creationTimestamp: created.metadata.creationTimestamp,
      },
      spec: { replicas: 2 },
      status: { replicas: 0, selector: "app=d1,tier in (a,b)" },
    });
  });

  it("writes replicas to the parent and rejects a stale resourceVersion", async () => {
    await t.call("POST", apps("deployments"), { body: deployment("d2") });
    const scale = (await t.call("GET", `${apps("deployments")}/d2/scale`)).json;
    const put = await t.call("PUT", `${apps("deployments")}/d2/scale`, {
      body: { ...scale, spec: { replicas: 5 } },
    });
    expect(put.status).toBe(200);
    expect(put.json.spec).toEqual({ replicas: 5 });
    expect(Number(put.json.metadata.resourceVersion)).toBeGreaterThan(Number(scale.metadata.resourceVersion));
    const parent = (await t.call("GET", `${apps("deployments")}/d2`)).json;
    expect(parent.spec.replicas).toBe(5);
    expect(parent.metadata.generation).toBe(2);
    expect(parent.metadata.resourceVersion).toBe(put.json.metadata.resourceVersion);
    const stale = await t.call("PUT", `${apps("deployments")}/d2/scale`, {
      body: { ...scale, spec: { replicas: 7 } },
    });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({
      reason: "Conflict",
      message: `Operation cannot be fulfilled on deployments.apps "d2": the object has been modified; please apply your changes to the latest version and try again`,
      details: { name: "d2", group: "apps", kind: "deployments" },
    });
  });

  it("validates replicas like upstream", async () => {
    await t.call("POST", apps("deployments"), { body: deployment("d3") });
    const res = await t.call("PUT", `${apps("deployments")}/d3/scale`, {
      body: { apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name: "d3" }, spec: { replicas: -1 } },
    });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe(
      'Scale.autoscaling "d3" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(res.json.details).toEqual({
      name: "d3",
      group: "autoscaling",
      kind: "Scale",
      causes: [
        {
          reason: "FieldValueInvalid",
          message: "Invalid value: -1: must be greater than or equal to 0",
          field: "spec.replicas",
        },
      ],
    });
  });

  it("patches with merge and JSON patches; zero replicas drop out of spec", async () => {
    await t.call("POST", apps("deployments"), { body: deployment("d4") });
    const merged = await t.call("PATCH", `${apps("deployments")}/d4/scale`, {
      body: { spec: { replicas: 0 } },
      contentType: "application/merge-patch+json",
    });
    expect(merged.status).toBe(200);
    // autoscaling/v1 Scale omits a zero spec.replicas.
    expect(merged.json.spec).toEqual({});
    const jsonPatched = await t.call("PATCH", `${apps("deployments")}/d4/scale`, {
      body: [{ op: "add", path: "/spec/replicas", value: 3 }],
      contentType: "application/json-patch+json",
    });
    expect(jsonPatched.json.spec).toEqual({ replicas: 3 });
    expect((await t.call("GET", `${apps("deployments")}/d4`)).json.spec.replicas).toBe(3);
  });

  it("scales ReplicaSets and StatefulSets", async () => {
    const rs = {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: { name: "rs1" },
      spec: { replicas: 1, selector: { matchLabels: { app: "rs1" } }, template: podTemplate("rs1") },
    };
    const sts = {
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: { name: "sts1" },
      spec: {
        replicas: 1,
        serviceName: "sts1",
        selector: { matchLabels: { app: "sts1" } },
        template: podTemplate("sts1"),
      },
    };
    expect((await t.call("POST", apps("replicasets"), { body: rs })).status).toBe(201);
    expect((await t.call("POST", apps("statefulsets"), { body: sts })).status).toBe(201);
    for (const [resource, name] of [
      ["replicasets", "rs1"],
      ["statefulsets", "sts1"],
    ] as const) {
      const res = await t.call("PATCH", `${apps(resource)}/${name}/scale`, {
        body: { spec: { replicas: 4 } },
        contentType: "application/merge-patch+json",
      });
      expect(res.json).toMatchObject({
        kind: "Scale",
        spec: { replicas: 4 },
        status: { selector: `app=${name}` },
      });
      expect((await t.call("GET", `${apps(resource)}/${name}`)).json.spec.replicas).toBe(4);
    }
  });

  it("answers a missing parent with the parent's NotFound", async () => {
    const res = await t.call("GET", `${apps("deployments")}/nope/scale`);
    expect(res.status).toBe(404);
    expect(res.json.message).toBe('deployments.apps "nope" not found');
  });
});
