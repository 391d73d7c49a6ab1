import type { Kube } from "@kubesdk/client";
import type { appsV1, coreV1, KubernetesObject, metaV1 } from "@kubesdk/models";
import { describe, expectTypeOf, test } from "vitest";
import { Informer, InformerFactory, type ReadonlyStore } from "../src/index.js";

declare const kube: Kube;

interface CronTab extends KubernetesObject {
  spec?: { cronSpec?: string };
}

describe("Informer is tied to the resource it reads", () => {
  test("the object type is inferred from the resource client", () => {
    const pods = new Informer(kube.resource("v1", "Pod"), { namespace: "default" });
    expectTypeOf(pods).toEqualTypeOf<Informer<coreV1.Pod>>();
    expectTypeOf(pods.store).toEqualTypeOf<ReadonlyStore<coreV1.Pod>>();
    expectTypeOf(pods.store.get("default/web")).toEqualTypeOf<coreV1.Pod | undefined>();
    const crons = new Informer(
      kube.custom<CronTab>({ group: "x.io", version: "v1", plural: "crontabs", namespaced: true }),
    );
    expectTypeOf(crons).toEqualTypeOf<Informer<CronTab>>();
  });

  test("a metadata-only reader gives an informer of PartialObjectMetadata", () => {
    const meta = new Informer(kube.resource("v1", "Secret").metadataOnly(), { allNamespaces: true });
    expectTypeOf(meta).toEqualTypeOf<Informer<metaV1.PartialObjectMetadata>>();
  });

  test("an explicit type must match the resource", () => {
    // @ts-expect-error ConfigMaps are not Pods
    new Informer<coreV1.Pod>(kube.resource("v1", "ConfigMap"));
    // @ts-expect-error Deployments are not DaemonSets
    new Informer<appsV1.DaemonSet>(kube.resource("apps/v1", "Deployment"), { namespace: "a" });
  });

  test("handlers and transforms receive the inferred type", () => {
    const pods = new Informer(kube.resource("v1", "Pod"), {
      transform: (pod) => {
        expectTypeOf(pod).toEqualTypeOf<coreV1.Pod>();
        return pod;
      },
    });
    pods.addEventHandler({
      add: (pod) => {
        expectTypeOf(pod).toEqualTypeOf<coreV1.Pod>();
      },
      update: (_old, pod) => {
        expectTypeOf(pod).toEqualTypeOf<coreV1.Pod>();
      },
    });
  });
});

describe("InformerFactory", () => {
  const factory = new InformerFactory(kube);

  test("informer(apiVersion, kind) is typed like kube.resource", () => {
    expectTypeOf(factory.informer("apps/v1", "Deployment", { namespace: "a" })).toEqualTypeOf<
      Informer<appsV1.Deployment>
    >();
    expectTypeOf(factory.informer("v1", "Node")).toEqualTypeOf<Informer<coreV1.Node>>();
    expectTypeOf(factory.informer("v1", "Pod", { metadataOnly: true })).toEqualTypeOf<
      Informer<metaV1.PartialObjectMetadata>
    >();
    // @ts-expect-error Deployment is not served by v1
    factory.informer("v1", "Deployment");
    // @ts-expect-error not a kind at all
    factory.informer("apps/v1", "Nothing");
  });

  test("informerFor takes any resource client", () => {
    const crons = kube.custom<CronTab>({
      group: "x.io",
      version: "v1",
      plural: "crontabs",
      namespaced: true,
    });
    expectTypeOf(factory.informerFor(crons, { allNamespaces: true })).toEqualTypeOf<Informer<CronTab>>();
    expectTypeOf(factory.informerFor(kube.resource("v1", "ConfigMap"))).toEqualTypeOf<
      Informer<coreV1.ConfigMap>
    >();
    expectTypeOf(factory.informerFor(crons, { metadataOnly: true })).toEqualTypeOf<
      Informer<metaV1.PartialObjectMetadata>
    >();
    // @ts-expect-error the informer's type follows the client's
    const wrong: Informer<coreV1.Pod> = factory.informerFor(kube.resource("v1", "ConfigMap"));
    void wrong;
  });

  test("selectors are text or equality records", () => {
    factory.informer("v1", "Pod", {
      labelSelector: { app: "web" },
      fieldSelector: { "spec.nodeName": "n1" },
    });
    factory.informer("v1", "Pod", {
      labelSelector: "app in (web,api)",
      fieldSelector: "status.phase=Running",
    });
  });
});
