/**
 * Aggregated discovery, as kubectl and client-go ask for it: `/api` and `/apis` in one
 * APIGroupDiscoveryList (apidiscovery.k8s.io/v2) when Accept asks for it, with the groups and
 * versions of the legacy documents, resources in upstream's shape, an ETag that answers 304, and
 * 406 for the retired v2beta1.
 */
import { decodeObject } from "@kubesdk/models";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget } from "../support/target.js";

const AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
// What client-go sends: protobuf and JSON aggregated, then the legacy document.
const CLIENT_GO_ACCEPT = `application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,${AGGREGATED},application/json;q=0.9`;

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(async () => {
  await t.close();
});

async function rawBytes(path: string, accept: string): Promise<Uint8Array> {
  const dispatcher = new Agent({ connect: t.ca ? { ca: t.ca } : {} });
  const res = await request(t.url + path, {
    headers: { authorization: `Bearer ${t.token}`, accept },
    dispatcher,
  });
  const bytes = new Uint8Array(await res.body.arrayBuffer());
  await dispatcher.close();
  return bytes;
}

type Item = {
  metadata: { name?: string };
  versions: { version: string; resources: { resource: string }[] }[];
};

describe("aggregated discovery", () => {
  it("answers client-go's Accept in protobuf, the same document as in JSON", async () => {
    const pb = await t.call("GET", "/apis", { accept: CLIENT_GO_ACCEPT });
    expect(pb.status).toBe(200);
    expect(pb.headers["content-type"]).toBe(
      "application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
    );
    const bytes = await rawBytes("/apis", CLIENT_GO_ACCEPT);
    const json = (await t.call("GET", "/apis", { accept: AGGREGATED })).json;
    expect(decodeObject(bytes)).toEqual(json);
  });

  it("lists every group and version of /apis in its order, preferred version first", async () => {
    const res = await t.call("GET", "/apis", { accept: AGGREGATED });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe(AGGREGATED);
    expect(res.headers.vary).toBe("Accept");
    expect(res.json.kind).toBe("APIGroupDiscoveryList");
    expect(res.json.apiVersion).toBe("apidiscovery.k8s.io/v2");
    const legacy = (await t.call("GET", "/apis")).json.groups as {
      name: string;
      versions: { version: string }[];
      preferredVersion: { version: string };
    }[];
    const items = res.json.items as Item[];
    // Other suites add and remove CRD groups on a shared server between the two reads, and custom
    // groups come sorted by name here but as registered in /apis: compare the built-in groups' order.
    const aggregatedNames = items.map((i) => i.metadata.name as string);
    const legacyNames = legacy.map((g) => g.name);
    const builtIn = (names: string[]) =>
      names.filter((n) => !n.includes("kubesdk") && n !== "metrics.k8s.io");
    expect(builtIn(aggregatedNames)).toEqual(builtIn(legacyNames));
    expect(aggregatedNames).toEqual(expect.arrayContaining(["apps", "batch", "authorization.k8s.io"]));
    for (const g of legacy) {
      const item = items.find((i) => i.metadata.name === g.name);
      if (item === undefined) continue;
      expect(item.versions[0]?.version).toBe(g.preferredVersion.version);
      expect(item.versions.map((v) => v.version).sort()).toEqual(g.versions.map((v) => v.version).sort());
    }
  });

  it("describes a resource as upstream does, responseKind empty for its own group version", async () => {
    const apis = (await t.call("GET", "/apis", { accept: AGGREGATED })).json.items as Item[];
    const apps = apis.find((i) => i.metadata.name === "apps") as Item;
    const deployments = apps.versions[0]?.resources.find((r) => r.resource === "deployments");
    expect(deployments).toEqual({
      resource: "deployments",
      responseKind: { group: "", version: "", kind: "Deployment" },
      scope: "Namespaced",
      singularResource: "deployment",
      verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
      shortNames: ["deploy"],
      categories: ["all"],
      subresources: [
        {
          subresource: "scale",
          responseKind: { group: "autoscaling", version: "v1", kind: "Scale" },
          verbs: ["get", "patch", "update"],
        },
        {
          subresource: "status",
          responseKind: { group: "", version: "", kind: "Deployment" },
          verbs: ["get", "patch", "update"],
        },
      ],
    });
    const names = (apps.versions[0]?.resources ?? []).map((r) => r.resource);
    expect(names).toEqual([...names].sort());
  });

  it("serves the core group at /api, unnamed", async () => {
    const res = await t.call("GET", "/api", { accept: AGGREGATED });
    expect(res.status).toBe(200);
    const items = res.json.items as Item[];
    expect(items.length).toBe(1);
    expect(items[0]?.metadata).toEqual({});
    const configmaps = items[0]?.versions[0]?.resources.find((r) => r.resource === "configmaps");
    expect(configmaps).toEqual({
      resource: "configmaps",
      responseKind: { group: "", version: "", kind: "ConfigMap" },
      scope: "Namespaced",
      singularResource: "configmap",
      verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
      shortNames: ["cm"],
    });
  });

  it("answers 304 to the ETag it gave, and the legacy document without the aggregated Accept", async () => {
    const first = await t.call("GET", "/apis", { accept: AGGREGATED });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    const again = await t.call("GET", "/apis", { accept: AGGREGATED, headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    const legacy = await t.call("GET", "/apis", { accept: "application/json" });
    expect(legacy.json.kind).toBe("APIGroupList");
  });

  it("refuses v2beta1 alone with 406", async () => {
    const res = await t.call("GET", "/apis", {
      accept: "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList",
    });
    expect(res.status).toBe(406);
    expect(res.json.reason).toBe("NotAcceptable");
  });
});
