import { registry } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import { RequestBuilder, type ResourceTarget, targetOf } from "../src/index.js";
import { codeOf } from "./error-code.js";

const builtin = (apiVersion: string, kind: string): ResourceTarget => {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  const info = registry.lookup({ group: group as string, version: version as string, kind });
  if (!info) throw new Error(`no ${kind}`);
  return targetOf(info, true);
};
const configMaps = new RequestBuilder(builtin("v1", "ConfigMap"), { defaultNamespace: "team-a" });
const deployments = new RequestBuilder(builtin("apps/v1", "Deployment"), { defaultNamespace: "team-a" });
const namespaces = new RequestBuilder(builtin("v1", "Namespace"), { defaultNamespace: "team-a" });
const crontabs = new RequestBuilder(
  {
    group: "stable.example.com",
    version: "v1",
    plural: "crontabs",
    namespaced: true,
    kind: "CronTab",
    builtin: false,
  },
  { defaultNamespace: "team-a" },
);

describe("paths", () => {
  it("puts core resources under /api and groups under /apis, namespaced or not", () => {
    expect(configMaps.get("x").path).toBe("/api/v1/namespaces/team-a/configmaps/x");
    expect(deployments.get("web", { namespace: "prod" }).path).toBe(
      "/apis/apps/v1/namespaces/prod/deployments/web",
    );
    expect(namespaces.get("kube-system").path).toBe("/api/v1/namespaces/kube-system");
    expect(crontabs.list().path).toBe("/apis/stable.example.com/v1/namespaces/team-a/crontabs");
  });

  it("lists across all namespaces only when asked", () => {
    expect(configMaps.list({ allNamespaces: true }).path).toBe("/api/v1/configmaps");
    expect(deployments.watch({ allNamespaces: true }).path).toBe("/apis/apps/v1/deployments");
    expect(codeOf(() => configMaps.list({ allNamespaces: true, namespace: "x" }))).toBe("INVALID_OPTION");
  });

  it("percent-encodes names and namespaces and refuses segments that navigate", () => {
    expect(configMaps.get("a b/c?d#e%f").path).toBe(
      "/api/v1/namespaces/team-a/configmaps/a%20b%2Fc%3Fd%23e%25f",
    );
    expect(configMaps.get("x", { namespace: "ü" }).path).toBe("/api/v1/namespaces/%C3%BC/configmaps/x");
    for (const name of ["", ".", ".."])
      expect(codeOf(() => configMaps.get(name))).toBe("INVALID_PATH_SEGMENT");
    expect(codeOf(() => configMaps.get("x", { namespace: ".." }))).toBe("INVALID_PATH_SEGMENT");
  });

  it("addresses subresources after the name", () => {
    expect(deployments.get("web", { subresource: "scale" }).path).toBe(
      "/apis/apps/v1/namespaces/team-a/deployments/web/scale",
    );
    expect(deployments.patch("web", { type: "merge", patch: {} }, { subresource: "status" }).path).toBe(
      "/apis/apps/v1/namespaces/team-a/deployments/web/status",
    );
    expect(codeOf(() => configMaps.get("x", { subresource: "scale" }))).toBe("UNSUPPORTED_OPERATION");
  });

  it("refuses a namespace for cluster-scoped resources and a namespaced call without any namespace", () => {
    expect(codeOf(() => namespaces.get("x", { namespace: "default" }))).toBe("NAMESPACE_NOT_ALLOWED");
    const noDefault = new RequestBuilder(builtin("v1", "ConfigMap"));
    expect(codeOf(() => noDefault.get("x"))).toBe("MISSING_NAMESPACE");
    expect(noDefault.get("x", { namespace: "n" }).path).toBe("/api/v1/namespaces/n/configmaps/x");
  });

  it("refuses verbs the resource does not serve", () => {
    const bindings = new RequestBuilder(builtin("v1", "Binding"), { defaultNamespace: "d" });
    expect(codeOf(() => bindings.list())).toBe("UNSUPPORTED_OPERATION");
    expect(bindings.create({ metadata: { name: "b" } }).method).toBe("POST");
  });
});

describe("query parameters", () => {
  it("carries every list option, with selectors in either form", () => {
    // Options other than the selectors go into the query as they are.
    const passed = {
      limit: 10,
      continue: "tok",
      resourceVersion: "5",
      resourceVersionMatch: "NotOlderThan",
      timeoutSeconds: 30,
    } as const;
    const request = configMaps.list({
      labelSelector: { app: "web", tier: "front" },
      fieldSelector: "metadata.name!=x",
      ...passed,
    });
    expect(request).toEqual({
      method: "GET",
      path: "/api/v1/namespaces/team-a/configmaps",
      query: {
        labelSelector: "app=web,tier=front",
        fieldSelector: "metadata.name!=x",
        ...passed,
      },
      accept: "application/json",
    });
    expect(configMaps.list({ labelSelector: "a in (x,y),!b" }).query?.labelSelector).toBe("a in (x,y),!b");
  });

  it("takes field selectors as records too, on lists and watches; empty selectors are left out", () => {
    const byName = { fieldSelector: { "metadata.name": "web", "metadata.namespace": "team-a" } };
    const text = "metadata.name=web,metadata.namespace=team-a";
    expect(configMaps.list(byName).query?.fieldSelector).toBe(text);
    expect(configMaps.watch(byName).query?.fieldSelector).toBe(text);
    const empty = configMaps.list({ labelSelector: "", fieldSelector: {} }).query;
    expect(empty?.labelSelector).toBeUndefined();
    expect(empty?.fieldSelector).toBeUndefined();
  });

  it("rejects counts that are not non-negative integers", () => {
    expect(codeOf(() => configMaps.list({ limit: 0 }))).toBe("INVALID_OPTION");
    expect(codeOf(() => configMaps.list({ limit: 1.5 }))).toBe("INVALID_OPTION");
    expect(codeOf(() => configMaps.watch({ timeoutSeconds: -1 }))).toBe("INVALID_OPTION");
    expect(codeOf(() => configMaps.delete("x", { gracePeriodSeconds: -5 }))).toBe("INVALID_OPTION");
  });

  it("builds watches with bookmarks, and streaming lists with the options the server requires", () => {
    expect(
      configMaps.watch({ resourceVersion: "7", allowWatchBookmarks: true, timeoutSeconds: 300 }).query,
    ).toEqual({
      watch: "true",
      resourceVersion: "7",
      allowWatchBookmarks: "true",
      timeoutSeconds: 300,
    });
    expect(configMaps.watch({ sendInitialEvents: true }).query).toEqual({
      watch: "true",
      resourceVersionMatch: "NotOlderThan",
      allowWatchBookmarks: "true",
      sendInitialEvents: "true",
    });
    expect(codeOf(() => configMaps.watch({ sendInitialEvents: true, allowWatchBookmarks: false }))).toBe(
      "INVALID_OPTION",
    );
    expect(codeOf(() => configMaps.watch({ sendInitialEvents: true, resourceVersionMatch: "Exact" }))).toBe(
      "INVALID_OPTION",
    );
  });

  it("sends write options: dryRun=All, fieldManager, fieldValidation", () => {
    const request = configMaps.create(
      { metadata: { name: "x" } },
      { dryRun: true, fieldManager: "me", fieldValidation: "Strict" },
    );
    expect(request.query).toEqual({ dryRun: "All", fieldManager: "me", fieldValidation: "Strict" });
    expect(configMaps.create({ metadata: { name: "x" } }, { dryRun: false }).query).toEqual({});
  });

  it("drops undefined values so they never reach the wire", () => {
    const q = configMaps.get("x").query ?? {};
    expect(Object.values(q).every((v) => v === undefined)).toBe(true);
  });
});

describe("writes", () => {
  it("creates into the explicit namespace, else the object's, else the default", () => {
    expect(configMaps.create({ metadata: { name: "x", namespace: "obj" } }, { namespace: "opt" }).path).toBe(
      "/api/v1/namespaces/opt/configmaps",
    );
    expect(configMaps.create({ metadata: { name: "x", namespace: "obj" } }).path).toBe(
      "/api/v1/namespaces/obj/configmaps",
    );
    expect(configMaps.create({ metadata: { generateName: "x-" } }).path).toBe(
      "/api/v1/namespaces/team-a/configmaps",
    );
  });

  it("replaces by metadata.name with the object as JSON body", () => {
    const body = { metadata: { name: "x", resourceVersion: "3" }, data: { a: "1" } };
    expect(configMaps.replace(body)).toEqual({
      method: "PUT",
      path: "/api/v1/namespaces/team-a/configmaps/x",
      query: {},
      body,
      contentType: "application/json",
      accept: "application/json",
    });
    expect(codeOf(() => configMaps.replace({ metadata: {} }))).toBe("MISSING_NAME");
    expect(codeOf(() => configMaps.create(null as never))).toBe("INVALID_OPTION");
  });

  it("uses the content type of each patch format", () => {
    const json = configMaps.patch("x", { type: "json", operations: [{ op: "remove", path: "/data/a" }] });
    expect(json.contentType).toBe("application/json-patch+json");
    expect(json.body).toEqual([{ op: "remove", path: "/data/a" }]);
    const merge = configMaps.patch("x", { type: "merge", patch: { data: { a: null } } });
    expect([merge.method, merge.contentType, merge.body]).toEqual([
      "PATCH",
      "application/merge-patch+json",
      { data: { a: null } },
    ]);
    const strategic = deployments.patch("web", { type: "strategic", patch: { spec: { replicas: 2 } } });
    expect(strategic.contentType).toBe("application/strategic-merge-patch+json");
    const apply = deployments.patch(
      "web",
      { type: "apply", object: { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" } } },
      { fieldManager: "me", force: true },
    );
    expect(apply.contentType).toBe("application/apply-patch+yaml");
    expect(apply.query).toEqual({ fieldManager: "me", force: "true" });
    expect(apply.body).toEqual({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" } });
  });

  it("refuses patches the server would refuse", () => {
    const apply = {
      type: "apply",
      object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" } },
    } as const;
    expect(codeOf(() => configMaps.patch("x", apply))).toBe("INVALID_OPTION");
    expect(codeOf(() => configMaps.patch("x", { type: "merge", patch: {} }, { force: true }))).toBe(
      "INVALID_OPTION",
    );
    expect(codeOf(() => crontabs.patch("x", { type: "strategic", patch: {} }))).toBe(
      "STRATEGIC_MERGE_UNSUPPORTED",
    );
    expect(crontabs.patch("x", { type: "merge", patch: {} }).contentType).toBe(
      "application/merge-patch+json",
    );
    expect(codeOf(() => configMaps.patch("x", { type: "yaml" } as never))).toBe("INVALID_OPTION");
  });
});

describe("deletes", () => {
  it("puts options in the query when there are no preconditions", () => {
    expect(
      configMaps.delete("x", { dryRun: true, gracePeriodSeconds: 0, propagationPolicy: "Foreground" }),
    ).toEqual({
      method: "DELETE",
      path: "/api/v1/namespaces/team-a/configmaps/x",
      query: { dryRun: "All", gracePeriodSeconds: 0, propagationPolicy: "Foreground" },
      accept: "application/json",
    });
  });

  it("moves every option into a DeleteOptions body with preconditions (the server then ignores the query)", () => {
    const request = configMaps.delete("x", {
      dryRun: true,
      propagationPolicy: "Orphan",
      gracePeriodSeconds: 5,
      preconditions: { uid: "u-1", resourceVersion: "9" },
    });
    expect(request.query).toEqual({});
    expect(request.contentType).toBe("application/json");
    expect(request.body).toEqual({
      kind: "DeleteOptions",
      apiVersion: "meta.k8s.io/v1",
      dryRun: ["All"],
      gracePeriodSeconds: 5,
      propagationPolicy: "Orphan",
      preconditions: { uid: "u-1", resourceVersion: "9" },
    });
  });

  it("deletes collections by selector", () => {
    const request = configMaps.deleteCollection({
      labelSelector: { app: "web" },
      propagationPolicy: "Background",
    });
    expect(request.method).toBe("DELETE");
    expect(request.path).toBe("/api/v1/namespaces/team-a/configmaps");
    expect(request.query).toMatchObject({ labelSelector: "app=web", propagationPolicy: "Background" });
  });
});

describe("representations", () => {
  it("asks for Table and PartialObjectMetadata(List) without a plain JSON fallback", () => {
    expect(configMaps.list({ representation: "table" }).accept).toBe(
      "application/json;as=Table;g=meta.k8s.io;v=v1",
    );
    expect(configMaps.get("x", { representation: "table", includeObject: "None" }).query).toEqual({
      includeObject: "None",
      resourceVersion: undefined,
    });
    expect(configMaps.list({ representation: "metadata" }).accept).toBe(
      "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
    );
    expect(configMaps.get("x", { representation: "metadata" }).accept).toBe(
      "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
    );
    expect(configMaps.watch({ representation: "metadata" }).accept).toBe(
      "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
    );
    expect(codeOf(() => configMaps.get("x", { includeObject: "Object" }))).toBe("INVALID_OPTION");
  });

  it("asks for protobuf with a JSON fallback", () => {
    const proto = new RequestBuilder(builtin("v1", "Pod"), { defaultNamespace: "d", encoding: "protobuf" });
    expect(proto.list().accept).toBe("application/vnd.kubernetes.protobuf, application/json");
    expect(proto.list({ representation: "metadata" }).accept).toBe(
      "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
    );
    expect(proto.list({ representation: "table" }).accept).toBe(
      "application/json;as=Table;g=meta.k8s.io;v=v1",
    );
  });
});

describe("build(spec)", () => {
  it("is the same request as the verb's method", () => {
    expect(configMaps.build({ verb: "get", name: "x", options: { namespace: "n" } })).toEqual(
      configMaps.get("x", { namespace: "n" }),
    );
    expect(configMaps.build({ verb: "update", name: "y", body: { metadata: { name: "x" } } }).path).toBe(
      "/api/v1/namespaces/team-a/configmaps/y",
    );
    expect(configMaps.build({ verb: "deletecollection" })).toEqual(configMaps.deleteCollection());
    expect(codeOf(() => configMaps.build({ verb: "proxy" } as never))).toBe("INVALID_OPTION");
  });
});
