/**
 * Responses of the wrong shape, over real HTTP: each becomes a ClientError UNEXPECTED_RESPONSE that
 * names the offending field, never a TypeError.
 */
import type http from "node:http";
import { describe, expect, it } from "vitest";
import { useHarness } from "../../transport/test/helpers/harness.js";
import { rejection } from "../../transport/test/helpers/rejection.js";
import { sendJson } from "../../transport/test/helpers/test-server.js";
import { ClientError, Kube } from "../src/index.js";

const harness = useHarness();

/** A client whose server answers every path from `routes` (404 for the rest). */
async function clientServing(routes: Record<string, unknown>): Promise<Kube> {
  const server = await harness.serve((seen, _req, res: http.ServerResponse) => {
    const path = seen.url.split("?")[0] ?? "";
    if (path in routes) sendJson(res, 200, routes[path]);
    else
      sendJson(res, 404, {
        kind: "Status",
        apiVersion: "v1",
        status: "Failure",
        reason: "NotFound",
        code: 404,
      });
  });
  return new Kube(harness.transport(server.url, { retries: false }));
}

async function failure(promise: Promise<unknown>): Promise<ClientError> {
  const err = await rejection(promise);
  expect(err).toBeInstanceOf(ClientError);
  expect(err).toMatchObject({ code: "UNEXPECTED_RESPONSE" });
  return err as ClientError;
}

describe("discovery documents are checked", () => {
  it("an APIResourceList entry without a string name", async () => {
    const kube = await clientServing({
      "/apis/example.com/v1": { kind: "APIResourceList", resources: [{ name: 5, kind: "Widget" }] },
    });
    const err = await failure(kube.discovery.resources("example.com/v1"));
    expect(err.message).toMatch(
      /^discovery of example\.com\/v1 is not an APIResourceList: resources\.0\.name: /,
    );
  });

  it("an APIResourceList whose resources are not an array", async () => {
    const kube = await clientServing({ "/api/v1": { kind: "APIResourceList", resources: "pods" } });
    const err = await failure(kube.discovery.resources("v1"));
    expect(err.message).toContain("resources: ");
  });

  it("an APIGroupList with a version entry that is not an object, and /api without versions", async () => {
    const groups = { kind: "APIGroupList", groups: [{ name: "apps", versions: [null] }] };
    const broken = await clientServing({
      "/api": { kind: "APIVersions", versions: ["v1"] },
      "/apis": groups,
    });
    expect((await failure(broken.discovery.groups())).message).toContain("groups.0.versions.0");
    const noCore = await clientServing({ "/api": { kind: "APIVersions" }, "/apis": { groups: [] } });
    expect((await failure(noCore.discovery.groups())).message).toMatch(
      /^discovery at \/api is not an APIVersions: versions: /,
    );
  });
});

describe("list responses are checked (the envelope only)", () => {
  const path = "/api/v1/namespaces/default/configmaps";

  it("items that are not an array", async () => {
    const kube = await clientServing({ [path]: { kind: "ConfigMapList", metadata: {}, items: { a: 1 } } });
    const err = await failure(kube.resource("v1", "ConfigMap").list());
    expect(err.message).toBe(`the list response of ${path} is not a list: items: expected an array`);
  });

  it("a resourceVersion or continue token that is not a string", async () => {
    const kube = await clientServing({
      [path]: { kind: "ConfigMapList", metadata: { resourceVersion: 7, continue: false }, items: [] },
    });
    const err = await failure(kube.resource("v1", "ConfigMap").list());
    expect(err.message).toContain("metadata.resourceVersion: ");
    expect(err.message).toContain("metadata.continue: ");
  });

  it("a body that is not an object at all", async () => {
    const kube = await clientServing({ [path]: ["x"] });
    const err = await failure(kube.resource("v1", "ConfigMap").list());
    expect(err.message).toContain("the body: ");
  });

  it("a well-formed list passes, items unchecked", async () => {
    const kube = await clientServing({
      [path]: {
        kind: "ConfigMapList",
        metadata: { resourceVersion: "9" },
        items: [{ metadata: { name: "a" } }],
      },
    });
    const list = await kube.resource("v1", "ConfigMap").list();
    expect(list.metadata?.resourceVersion).toBe("9");
    expect(list.items.map((i) => [i.kind, i.metadata?.name])).toEqual([["ConfigMap", "a"]]);
  });
});
