import type { apimachinery, appsV1, BuiltinKinds, coreV1, metaV1 } from "@kubesdk/models";
import { describe, expectTypeOf, test } from "vitest";

const template: coreV1.PodTemplateSpec = {
  metadata: { labels: { app: "web" } },
  spec: { containers: [{ name: "web", image: "nginx:1.27" }] },
};

describe("generated types", () => {
  test("a complete Deployment compiles", () => {
    const deployment: appsV1.Deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: "default" },
      spec: { replicas: 2, selector: { matchLabels: { app: "web" } }, template },
    };
    expectTypeOf(deployment.spec.selector).toEqualTypeOf<metaV1.LabelSelector>();
  });

  test("a Deployment without spec.selector does not compile", () => {
    const missingSelector: appsV1.Deployment = {
      metadata: { name: "web" },
      // @ts-expect-error selector is required by the schema
      spec: { template },
    };
    expectTypeOf(missingSelector).toEqualTypeOf<appsV1.Deployment>();
  });

  test("apiVersion and kind are literals where the schema names one kind", () => {
    expectTypeOf<NonNullable<coreV1.ConfigMap["apiVersion"]>>().toEqualTypeOf<"v1">();
    expectTypeOf<NonNullable<coreV1.ConfigMap["kind"]>>().toEqualTypeOf<"ConfigMap">();
    expectTypeOf<NonNullable<appsV1.Deployment["apiVersion"]>>().toEqualTypeOf<"apps/v1">();
    // @ts-expect-error a ConfigMap is not apps/v1
    const wrong: coreV1.ConfigMap = { apiVersion: "apps/v1" };
    expectTypeOf(wrong).toEqualTypeOf<coreV1.ConfigMap>();
    // DeleteOptions is registered in every group, so its apiVersion stays a string.
    expectTypeOf<NonNullable<metaV1.DeleteOptions["apiVersion"]>>().toEqualTypeOf<string>();
  });

  test("IntOrString takes numbers and strings, nothing else", () => {
    expectTypeOf<apimachinery.IntOrString>().toEqualTypeOf<number | string>();
    const byNumber: coreV1.ServicePort = { port: 80, targetPort: 8080 };
    const byName: coreV1.ServicePort = { port: 80, targetPort: "http" };
    // @ts-expect-error booleans are not int-or-string
    const wrong: coreV1.ServicePort = { port: 80, targetPort: true };
    expectTypeOf([byNumber, byName, wrong]).toEqualTypeOf<coreV1.ServicePort[]>();
  });

  test("special scalars map to their JSON forms", () => {
    expectTypeOf<metaV1.Time>().toEqualTypeOf<string>();
    expectTypeOf<metaV1.MicroTime>().toEqualTypeOf<string>();
    expectTypeOf<apimachinery.Quantity>().toEqualTypeOf<number | string>();
    expectTypeOf<NonNullable<coreV1.Secret["data"]>>().toEqualTypeOf<{ [key: string]: string }>();
    expectTypeOf<apimachinery.RawExtension>().toEqualTypeOf<{ [key: string]: unknown }>();
    expectTypeOf<metaV1.FieldsV1>().toEqualTypeOf<{ [key: string]: unknown }>();
  });

  test("list types hold their items and meta types exist", () => {
    expectTypeOf<appsV1.DeploymentList["items"]>().toEqualTypeOf<appsV1.Deployment[]>();
    expectTypeOf<metaV1.Table["rows"]>().toEqualTypeOf<metaV1.TableRow[]>();
    expectTypeOf<metaV1.PartialObjectMetadataList["items"]>().toEqualTypeOf<metaV1.PartialObjectMetadata[]>();
    expectTypeOf<NonNullable<metaV1.StatusDetails["causes"]>>().toEqualTypeOf<metaV1.StatusCause[]>();
  });

  test("BuiltinKinds maps apiVersion and kind to the type", () => {
    expectTypeOf<BuiltinKinds["apps/v1"]["Deployment"]>().toEqualTypeOf<appsV1.Deployment>();
    expectTypeOf<BuiltinKinds["v1"]["Pod"]>().toEqualTypeOf<coreV1.Pod>();
  });
});
