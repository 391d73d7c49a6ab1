import { describe, expect, it } from "vitest";
import {
  collectionPath,
  InvalidInformerOptionError,
  listRequest,
  resolveResource,
  watchRequest,
} from "../src/index.js";

const scope = { path: "/api/v1/namespaces/ns/configmaps", labelSelector: "a=b", fieldSelector: "" };

describe("request building", () => {
  it("builds list pages: the first with resourceVersion and limit, later ones with continue only", () => {
    expect(listRequest(scope, { limit: 500 }).query).toEqual({
      labelSelector: "a=b",
      fieldSelector: undefined,
      limit: 500,
      resourceVersion: undefined,
      resourceVersionMatch: undefined,
    });
    const next = listRequest(scope, { continue: "tok", limit: 500, resourceVersion: "9" }).query;
    expect(next).toMatchObject({ continue: "tok", limit: 500 });
    expect(next).not.toHaveProperty("resourceVersion");
    expect(listRequest(scope, { resourceVersion: "12" }).query).toMatchObject({
      resourceVersion: "12",
      limit: undefined,
    });
  });

  it("builds watches and streaming lists", () => {
    expect(
      watchRequest(scope, { resourceVersion: "5", allowWatchBookmarks: true, timeoutSeconds: 301 }).query,
    ).toEqual({
      allowWatchBookmarks: "true",
      resourceVersion: "5",
      resourceVersionMatch: undefined,
      sendInitialEvents: undefined,
      timeoutSeconds: 301,
      labelSelector: "a=b",
      fieldSelector: undefined,
      watch: "true",
    });
    expect(
      watchRequest(scope, {
        allowWatchBookmarks: true,
        sendInitialEvents: true,
        resourceVersionMatch: "NotOlderThan",
      }).query,
    ).toMatchObject({
      sendInitialEvents: "true",
      resourceVersionMatch: "NotOlderThan",
      resourceVersion: undefined,
    });
  });

  it("asks for metadata only with a JSON fallback", () => {
    const meta = { ...scope, metadataOnly: true };
    expect(listRequest(meta, {}).accept).toBe(
      "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json",
    );
    expect(watchRequest(meta, { allowWatchBookmarks: true }).accept).toBe(
      "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json",
    );
  });

  it("builds paths for core, grouped, namespaced and cluster-scoped resources", () => {
    expect(collectionPath(resolveResource("configmaps"), "a b")).toBe("/api/v1/namespaces/a%20b/configmaps");
    expect(collectionPath(resolveResource("deployments.apps"), undefined)).toBe("/apis/apps/v1/deployments");
    expect(() => collectionPath(resolveResource("nodes"), "ns")).toThrow(InvalidInformerOptionError);
    expect(() => resolveResource("nosuchthings")).toThrow(InvalidInformerOptionError);
  });
});
