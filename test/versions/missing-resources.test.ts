/**
 * What the client does when the server lacks a resource or a field, as an older Kubernetes release
 * does for what the pinned models know (docs/compatibility.md). The same assertions hold on the
 * embedded server and on every supported kube-apiserver (scripts/real-apiserver/test-versions.sh):
 * - a typed request for a resource the server does not serve fails with an `ApiError` (404,
 *   `isNotFound`), never with a decoding error;
 * - discovery of such a resource fails with `ClientError` code `UNKNOWN_RESOURCE`;
 * - a field the server's schema lacks is dropped from the stored object (or rejected with
 *   `fieldValidation: "Strict"`), as any unknown field is.
 */
import { ApiError, ClientError, type Kube } from "@kubesdk/client";
import { builtinResources, type coreV1, type KubernetesObject, type ResourceInfo } from "@kubesdk/models";
import { isNotFound } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { namespacedSuite } from "../client/support.js";

const suite = namespacedSuite("versions");

/** A resource no release serves; on any server it stands for one that only a newer release has. */
const absent: ResourceInfo = {
  group: "absent.kubesdk.example",
  version: "v1",
  kind: "Widget",
  listKind: "WidgetList",
  plural: "widgets",
  singular: "widget",
  namespaced: true,
  verbs: ["get", "list"],
  subresources: [],
  shortNames: [],
  categories: [],
};

const apiVersion = (r: ResourceInfo) => (r.group === "" ? r.version : `${r.group}/${r.version}`);

/** Built-in resources of the pinned models that this server's discovery does not list (readable ones). */
async function unservedBuiltins(kube: Kube): Promise<ResourceInfo[]> {
  const registry = await kube.discovery.registry();
  const served = new Set(registry.all().map((r) => `${apiVersion(r)}/${r.plural}`));
  return builtinResources.filter(
    (r) => r.verbs.includes("get") && !served.has(`${apiVersion(r)}/${r.plural}`),
  );
}

function clientOf(kube: Kube, r: ResourceInfo) {
  return kube.custom<KubernetesObject>({
    group: r.group,
    version: r.version,
    plural: r.plural,
    kind: r.kind,
    namespaced: r.namespaced,
  });
}

async function expectNotFound(call: Promise<unknown>): Promise<void> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).statusCode).toBe(404);
  expect(isNotFound(error)).toBe(true);
}

describe("a resource the server does not serve", () => {
  it("answers get and list with a typed 404 ApiError", async () => {
    const widgets = clientOf(suite.kube, absent);
    await expectNotFound(widgets.get("w"));
    await expectNotFound(widgets.list());
  });

  it("answers every built-in of the models that the server lacks the same way", async () => {
    const missing = await unservedBuiltins(suite.kube);
    for (const r of missing) await expectNotFound(clientOf(suite.kube, r).get("x"));
  });

  it("is an UNKNOWN_RESOURCE ClientError in discovery", async () => {
    for (const r of [absent, ...(await unservedBuiltins(suite.kube))]) {
      const error = await suite.kube
        .discover({ apiVersion: apiVersion(r), kind: r.kind })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ClientError);
      expect((error as ClientError).code).toBe("UNKNOWN_RESOURCE");
    }
    const byName = await suite.kube.discover("widgets.absent.kubesdk.example").catch((e: unknown) => e);
    expect((byName as ClientError).code).toBe("UNKNOWN_RESOURCE");
  });
});

describe("a field the server does not know", () => {
  const withNewField = (name: string) =>
    ({ metadata: { name }, data: { a: "1" }, fieldFromANewerRelease: "x" }) as coreV1.ConfigMap;

  it("is dropped from the stored object by default", async () => {
    const created = await suite.kube.resource("v1", "ConfigMap").create(withNewField("dropped"));
    expect(created).not.toHaveProperty("fieldFromANewerRelease");
    expect(created.data).toEqual({ a: "1" });
  });

  it("is a 400 ApiError with fieldValidation Strict", async () => {
    const error = await suite.kube
      .resource("v1", "ConfigMap")
      .create(withNewField("strict"), { fieldValidation: "Strict" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(400);
  });
});
