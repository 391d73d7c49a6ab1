/** The root: model kinds by bare name, the client, informers and apply; group namespaces in kubesdk/models. */
import { describe, expectTypeOf, test } from "vitest";
import type {
  ApplyConfiguration,
  ConfigMap,
  Deployment,
  DeploymentList,
  Event,
  Eviction,
  HorizontalPodAutoscaler,
  Informer,
  InformerFactory,
  Kube,
  Lease,
  Pod,
  PodList,
  Scale,
  Status,
} from "../src/index.js";
import type {
  appsV1,
  autoscalingV1,
  autoscalingV2,
  coordinationV1,
  coreV1,
  eventsV1,
  metaV1,
  policyV1,
} from "../src/models.js";

describe("model types by kind name", () => {
  test("bare names are the group namespace types of the preferred version", () => {
    expectTypeOf<Pod>().toEqualTypeOf<coreV1.Pod>();
    expectTypeOf<PodList>().toEqualTypeOf<coreV1.PodList>();
    expectTypeOf<Deployment>().toEqualTypeOf<appsV1.Deployment>();
    expectTypeOf<DeploymentList["items"][number]>().toEqualTypeOf<Deployment>();
    expectTypeOf<HorizontalPodAutoscaler>().toEqualTypeOf<autoscalingV2.HorizontalPodAutoscaler>();
    expectTypeOf<Lease>().toEqualTypeOf<coordinationV1.Lease>();
    expectTypeOf<Scale>().toEqualTypeOf<autoscalingV1.Scale>();
    expectTypeOf<Eviction>().toEqualTypeOf<policyV1.Eviction>();
    expectTypeOf<Status>().toEqualTypeOf<metaV1.Status>();
  });

  test("Event is core/v1 Event; events.k8s.io stays under its namespace", () => {
    expectTypeOf<Event>().toEqualTypeOf<coreV1.Event>();
    expectTypeOf<Event>().not.toEqualTypeOf<eventsV1.Event>();
  });
});

describe("Kube", () => {
  test("kube.resource() and informers.informer() are typed by apiVersion and kind", () => {
    const kube = {} as Kube;
    const informers = {} as InformerFactory;
    expectTypeOf(informers.informer("v1", "ConfigMap")).toEqualTypeOf<Informer<ConfigMap>>();
    expectTypeOf(kube.resource("apps/v1", "Deployment").get).returns.resolves.toEqualTypeOf<Deployment>();
    // @ts-expect-error Deployment is not in the core group
    informers.informer("v1", "Deployment");
    expectTypeOf<ApplyConfiguration<ConfigMap>["metadata"]["name"]>().toEqualTypeOf<string>();
  });
});

describe("the curated root and its sub-paths", () => {
  test("wire, schema and runtime internals are under sub-paths, not at the root", async () => {
    const root = await import("../src/index.js");
    const models = await import("../src/models.js");
    const runtime = await import("../src/runtime.js");
    expectTypeOf(root).not.toHaveProperty("encodeObject");
    expectTypeOf(root).not.toHaveProperty("SchemaIndex");
    expectTypeOf(root).not.toHaveProperty("TokenBucketRateLimiter");
    expectTypeOf(models).toHaveProperty("encodeObject");
    expectTypeOf(runtime).toHaveProperty("TokenBucketRateLimiter");
  });

  test("one entry class: the root's Kube is @kubesdk/client's", async () => {
    const root = await import("../src/index.js");
    const client = await import("../src/client.js");
    expectTypeOf(root.Kube).toEqualTypeOf(client.Kube);
    expectTypeOf(root).not.toHaveProperty("KubeClient");
    expectTypeOf(root).not.toHaveProperty("createClient");
  });
});
