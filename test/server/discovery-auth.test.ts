import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, targetKind } from "../support/target.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

describe("discovery", () => {
  it("/version names the pinned release", async () => {
    const res = await t.call("GET", "/version");
    expect(res.status).toBe(200);
    expect(res.json.major).toBe("1");
    expect(res.json.minor).toBe("37");
    expect(res.json.gitVersion).toMatch(/^v1\.37\.1/);
  });

  it("/api and /apis list the core version and the groups with preferred versions", async () => {
    const api = await t.call("GET", "/api");
    expect(api.json.kind).toBe("APIVersions");
    expect(api.json.versions).toEqual(["v1"]);
    const apis = await t.call("GET", "/apis");
    expect(apis.json.kind).toBe("APIGroupList");
    const apps = apis.json.groups.find((g: { name: string }) => g.name === "apps");
    expect(apps.preferredVersion).toEqual({ groupVersion: "apps/v1", version: "v1" });
    for (const g of ["coordination.k8s.io", "events.k8s.io", "apiextensions.k8s.io"])
      expect(apis.json.groups.map((x: { name: string }) => x.name)).toContain(g);
    const group = await t.call("GET", "/apis/apps");
    expect(group.json).toMatchObject({ kind: "APIGroup", name: "apps" });
  });

  it("/api/v1 and /apis/apps/v1 describe resources with verbs, scope, short names and subresources", async () => {
    const core = await t.call("GET", "/api/v1");
    expect(core.json).toMatchObject({ kind: "APIResourceList", groupVersion: "v1" });
    const byName = new Map(core.json.resources.map((r: { name: string }) => [r.name, r]));
    expect(byName.get("configmaps")).toMatchObject({
      kind: "ConfigMap",
      namespaced: true,
      shortNames: ["cm"],
      singularName: "configmap",
    });
    expect(byName.get("namespaces")).toMatchObject({ kind: "Namespace", namespaced: false });
    expect(byName.get("pods/status")).toMatchObject({
      kind: "Pod",
      verbs: expect.arrayContaining(["get", "patch", "update"]),
    });
    const verbs = (byName.get("configmaps") as { verbs: string[] }).verbs;
    expect([...verbs].sort()).toEqual([
      "create",
      "delete",
      "deletecollection",
      "get",
      "list",
      "patch",
      "update",
      "watch",
    ]);
    const apps = await t.call("GET", "/apis/apps/v1");
    const dep = apps.json.resources.find((r: { name: string }) => r.name === "deployments");
    expect(dep).toMatchObject({
      kind: "Deployment",
      namespaced: true,
      shortNames: ["deploy"],
      categories: ["all"],
    });
  });

  it("unknown groups and versions are 404", async () => {
    expect((await t.call("GET", "/apis/nope.example.com")).status).toBe(404);
    expect((await t.call("GET", "/apis/apps/v9")).status).toBe(404);
  });
});

describe("authentication", () => {
  it("a wrong token is 401; no credentials is system:anonymous, forbidden but for public paths", async () => {
    const wrong = await t.call("GET", "/api/v1/namespaces", {
      anonymous: true,
      headers: { authorization: "Bearer nope" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({
      kind: "Status",
      reason: "Unauthorized",
      message: "Unauthorized",
      code: 401,
    });
    const list = await t.call("GET", "/api/v1/namespaces", { anonymous: true });
    expect(list.status).toBe(403);
    expect(list.json).toMatchObject({
      reason: "Forbidden",
      message:
        'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
      details: { kind: "namespaces" },
      code: 403,
    });
    const get = await t.call("GET", "/apis/apps/v1/namespaces/default/deployments/x", { anonymous: true });
    expect(get.json.message).toBe(
      'deployments.apps "x" is forbidden: User "system:anonymous" cannot get resource "deployments" in API group "apps" in the namespace "default"',
    );
    expect(get.json.details).toEqual({ name: "x", group: "apps", kind: "deployments" });
    const api = await t.call("GET", "/api", { anonymous: true });
    expect(api.status).toBe(403);
    expect(api.json.message).toBe('forbidden: User "system:anonymous" cannot get path "/api"');
    expect((await t.call("GET", "/version", { anonymous: true })).status).toBe(200);
  });

  // Reason for reference-only: issuing client certificates needs the reference server's CA in process.
  it.runIf(targetKind === "reference")(
    "a client certificate signed by the server's CA authenticates",
    async () => {
      const ref = t.reference;
      if (!ref) throw new Error("reference server expected");
      const cert = ref.issueClientCertificate("alice", ["system:masters"]);
      const agent = new Agent({ connect: { ca: ref.ca, cert: cert.certPem, key: cert.keyPem } });
      const res = await request(`${ref.url}/api/v1/namespaces`, { dispatcher: agent });
      expect(res.statusCode).toBe(200);
      const body = (await res.body.json()) as { kind: string };
      expect(body.kind).toBe("NamespaceList");
      await agent.close();
    },
  );
});

describe("negotiation", () => {
  it("serves YAML and Table, and 406 for an unservable Accept", async () => {
    const yaml = await t.call("GET", "/api/v1/namespaces/default", { accept: "application/yaml" });
    expect(yaml.headers["content-type"]).toBe("application/yaml");
    expect(yaml.text).toMatch(/^apiVersion: v1\n/m);
    const table = await t.call("GET", "/api/v1/namespaces", {
      accept: "application/json;as=Table;v=v1;g=meta.k8s.io,application/json",
    });
    expect(table.json.kind).toBe("Table");
    expect(table.json.columnDefinitions[0]).toMatchObject({ name: "Name", type: "string", format: "name" });
    expect(table.json.rows.length).toBeGreaterThan(0);
    expect(table.json.rows[0].object.kind).toBe("PartialObjectMetadata");
    const meta = await t.call("GET", "/api/v1/namespaces", {
      accept: "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
    });
    expect(meta.json.kind).toBe("PartialObjectMetadataList");
    const none = await t.call("GET", "/api/v1/namespaces", { accept: "text/html" });
    expect(none.status).toBe(406);
    expect(none.json.reason).toBe("NotAcceptable");
  });
});
