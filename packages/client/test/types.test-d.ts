import type { appsV1, autoscalingV1, coreV1, KubernetesObject, metaV1, rbacV1 } from "@kubesdk/models";
import type { WatchEvent } from "@kubesdk/transport";
import { describe, expectTypeOf, test } from "vitest";
import type {
  ApplyResult,
  BuiltinApiVersion,
  BuiltinResourceKind,
  DynamicObject,
  Kube,
  ListPager,
  Patch,
  ResourceClient,
  Status,
  SubresourceClient,
} from "../src/index.js";

declare const kube: Kube;

describe("typed built-in clients", () => {
  test("resource(apiVersion, kind) is typed by the generated object and list types", () => {
    const deployments = kube.resource("apps/v1", "Deployment");
    expectTypeOf(deployments).toEqualTypeOf<ResourceClient<appsV1.Deployment, appsV1.DeploymentList>>();
    expectTypeOf(deployments.get("web")).resolves.toEqualTypeOf<appsV1.Deployment>();
    expectTypeOf(deployments.list()).resolves.toEqualTypeOf<appsV1.DeploymentList>();
    expectTypeOf(deployments.listAll()).toEqualTypeOf<ListPager<appsV1.Deployment>>();
    expectTypeOf(deployments.delete("web")).resolves.toEqualTypeOf<appsV1.Deployment | Status>();
    expectTypeOf(kube.resource("v1", "Pod").get("p")).resolves.toEqualTypeOf<coreV1.Pod>();
    expectTypeOf(kube.resource("rbac.authorization.k8s.io/v1", "ClusterRole").create)
      .parameter(0)
      .toEqualTypeOf<rbacV1.ClusterRole>();
  });

  test("watch events carry the object type", async () => {
    for await (const event of kube.resource("v1", "ConfigMap").watch()) {
      expectTypeOf(event).toEqualTypeOf<WatchEvent<coreV1.ConfigMap>>();
    }
  });

  test("subresources and representations have their own types", () => {
    const deployments = kube.resource("apps/v1", "Deployment");
    expectTypeOf(deployments.scale).toEqualTypeOf<SubresourceClient<autoscalingV1.Scale>>();
    expectTypeOf(deployments.status.get("web")).resolves.toEqualTypeOf<appsV1.Deployment>();
    expectTypeOf(deployments.asTable().list()).resolves.toEqualTypeOf<metaV1.Table>();
    expectTypeOf(
      deployments.metadataOnly().list(),
    ).resolves.toEqualTypeOf<metaV1.PartialObjectMetadataList>();
  });

  test("unknown kinds, list kinds and message kinds are not resources", () => {
    // @ts-expect-error no such kind in apps/v1
    kube.resource("apps/v1", "Pod");
    // @ts-expect-error a list kind is not a resource
    kube.resource("v1", "PodList");
    // @ts-expect-error Scale is a subresource body, not a resource
    kube.resource("autoscaling/v1", "Scale");
    // @ts-expect-error no such apiVersion
    kube.resource("apps/v2", "Deployment");
    expectTypeOf<"meta.k8s.io/v1">().not.toMatchTypeOf<BuiltinApiVersion>();
    expectTypeOf<BuiltinResourceKind<"apps/v1">>().toEqualTypeOf<
      "ControllerRevision" | "DaemonSet" | "Deployment" | "ReplicaSet" | "StatefulSet"
    >();
  });
});

describe("patches", () => {
  const deployments = kube.resource("apps/v1", "Deployment");

  test("merge and strategic patches accept partial objects, null deletes, directives", () => {
    deployments.patch("web", { type: "merge", patch: { spec: { replicas: 3 }, metadata: { labels: null } } });
    deployments.patch("web", {
      type: "strategic",
      patch: { spec: { template: { spec: { containers: [{ name: "c", $patch: "delete" }] } } } },
    });
    // @ts-expect-error replicas is a number
    deployments.patch("web", { type: "merge", patch: { spec: { replicas: "3" } } });
    // @ts-expect-error no such field
    deployments.patch("web", { type: "merge", patch: { spec: { replica: 3 } } });
  });

  test("apply configurations need apiVersion, kind and metadata.name; JSON patches are RFC 6902 operations", () => {
    const web = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" } } as const;
    expectTypeOf(deployments.apply(web, { fieldManager: "me" })).resolves.toEqualTypeOf<appsV1.Deployment>();
    expectTypeOf(
      deployments.applyWithResult(web, { fieldManager: "me", conflicts: "yield" }),
    ).resolves.toEqualTypeOf<ApplyResult<appsV1.Deployment>>();
    expectTypeOf(
      deployments.status.apply(web, { fieldManager: "me" }),
    ).resolves.toEqualTypeOf<appsV1.Deployment>();
    // @ts-expect-error apiVersion and kind are required
    deployments.apply({ metadata: { name: "web" } }, { fieldManager: "me" });
    // @ts-expect-error metadata.name is required
    deployments.apply({ apiVersion: "apps/v1", kind: "Deployment", metadata: {} }, { fieldManager: "me" });
    const statefulSet = { apiVersion: "apps/v1", kind: "StatefulSet", metadata: { name: "web" } } as const;
    // @ts-expect-error the kind must be the client's
    deployments.apply(statefulSet, { fieldManager: "me" });
    // @ts-expect-error apply needs a field manager
    deployments.apply(web, {});
    // @ts-expect-error no such conflict policy
    deployments.apply(web, { fieldManager: "me", conflicts: "ignore" });
    deployments.patch(
      "web",
      { type: "apply", object: { ...web, spec: { replicas: 2 } } },
      { fieldManager: "me" },
    );
    const ops: Patch<appsV1.Deployment> = {
      type: "json",
      operations: [{ op: "move", from: "/a", path: "/b" }],
    };
    expectTypeOf(ops.type).toEqualTypeOf<"json">();
  });
});

describe("custom and discovered resources", () => {
  interface CronTab extends KubernetesObject {
    spec: { cronSpec: string; replicas?: number };
  }

  test("custom<T> is typed by the caller; the default is a DynamicObject", async () => {
    const crontabs = kube.custom<CronTab>({
      group: "stable.example.com",
      version: "v1",
      plural: "crontabs",
      namespaced: true,
    });
    expectTypeOf(crontabs.get("x")).resolves.toEqualTypeOf<CronTab>();
    crontabs.patch("x", { type: "merge", patch: { spec: { replicas: 2 } } });
    const dynamic = await kube.discover({ apiVersion: "stable.example.com/v1", kind: "CronTab" });
    expectTypeOf(dynamic.get("x")).resolves.toEqualTypeOf<DynamicObject>();
    dynamic.create({
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { name: "x" },
      spec: {},
    });
  });
});
