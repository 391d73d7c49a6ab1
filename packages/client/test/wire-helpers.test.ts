import { describe, expect, it } from "vitest";
import { BodyCodec, groupsOf, parseWarnings, resourcesOfList } from "../src/index.js";

describe("parseWarnings", () => {
  it("unquotes warn-text, splits comma-joined warnings and reads repeated headers", () => {
    expect(parseWarnings('299 - "unknown field \\"spec.foo\\""')).toEqual(['unknown field "spec.foo"']);
    expect(parseWarnings(['299 - "a, b"', '299 - "c" "Sat, 01 Jan 2000 00:00:00 GMT", 299 k8s "d"'])).toEqual(
      ["a, b", "c", "d"],
    );
    expect(parseWarnings(undefined)).toEqual([]);
    expect(parseWarnings("garbage")).toEqual([]);
  });
});

describe("discovery documents", () => {
  it("turns an APIResourceList into resources with their subresources", () => {
    const list = {
      kind: "APIResourceList",
      groupVersion: "apps/v1",
      resources: [
        {
          name: "deployments",
          singularName: "deployment",
          namespaced: true,
          kind: "Deployment",
          verbs: ["get", "list", "create"],
          shortNames: ["deploy"],
          categories: ["all"],
        },
        {
          name: "deployments/scale",
          singularName: "",
          namespaced: true,
          group: "autoscaling",
          version: "v1",
          kind: "Scale",
          verbs: ["get", "patch"],
        },
        {
          name: "deployments/status",
          singularName: "",
          namespaced: true,
          kind: "Deployment",
          verbs: ["get"],
        },
      ],
    };
    expect(resourcesOfList(list, "apps", "v1")).toEqual([
      {
        group: "apps",
        version: "v1",
        kind: "Deployment",
        listKind: "DeploymentList",
        plural: "deployments",
        singular: "deployment",
        namespaced: true,
        verbs: ["get", "list", "create"],
        subresources: [
          { name: "scale", kind: "Scale", group: "autoscaling", version: "v1", verbs: ["get", "patch"] },
          { name: "status", kind: "Deployment", verbs: ["get"] },
        ],
        shortNames: ["deploy"],
        categories: ["all"],
      },
    ]);
    expect(() => resourcesOfList({ kind: "Status" }, "apps", "v1")).toThrow(/not an APIResourceList/);
    const junk = { ...list, resources: [...list.resources, "junk"] };
    expect(() => resourcesOfList(junk, "apps", "v1")).toThrow(
      /^discovery of apps\/v1 is not an APIResourceList: resources\.3: /,
    );
  });

  it("orders each group's preferred version first", () => {
    const groups = {
      groups: [
        {
          name: "autoscaling",
          versions: [
            { groupVersion: "autoscaling/v1", version: "v1" },
            { groupVersion: "autoscaling/v2", version: "v2" },
          ],
          preferredVersion: { groupVersion: "autoscaling/v2", version: "v2" },
        },
      ],
    };
    expect(groupsOf({ versions: ["v1"] }, groups)).toEqual([
      { group: "", versions: ["v1"] },
      { group: "autoscaling", versions: ["v2", "v1"] },
    ]);
  });
});

describe("BodyCodec", () => {
  const codec = new BodyCodec();
  const response = (body: string, contentType?: string) => ({
    status: 200,
    headers: contentType === undefined ? {} : { "content-type": contentType },
    body: new TextEncoder().encode(body),
  });

  it("decodes JSON by Content-Type (or without one)", () => {
    expect(codec.decode(response('{"a":1}\n', "application/json"))).toEqual({ a: 1 });
    expect(codec.decode(response('{"a":1}', "application/json;as=Table;g=meta.k8s.io;v=v1"))).toEqual({
      a: 1,
    });
    expect(codec.decode(response("[]"))).toEqual([]);
  });

  it("rejects bodies it cannot decode with a typed error", () => {
    expect(() => codec.decode(response("<html>", "application/json"))).toThrow(
      expect.objectContaining({ code: "RESPONSE_DECODE" }),
    );
    expect(() => codec.decode(response("a: 1", "application/yaml"))).toThrow(
      expect.objectContaining({ code: "RESPONSE_DECODE" }),
    );
    expect(() => codec.decode(response("k8s\0", "application/vnd.kubernetes.protobuf"))).toThrow(
      expect.objectContaining({ code: "RESPONSE_DECODE" }),
    );
  });
});
