/**
 * A custom resource defined in TypeScript that uses every structural-schema feature
 * `defineCustomResource` maps (shared by the contract and unit suites).
 */
import { CrdType, defineCustomResource } from "@kubesdk/client";
import Type from "typebox";

export function widgetDefinition(group: string) {
  const spec = Type.Object(
    {
      size: Type.Integer({ minimum: 1, maximum: 10, default: 1, description: "How big the widget is." }),
      color: Type.Optional(Type.Enum(["red", "green", "blue"], { description: "Paint color." })),
      replicas: Type.Optional(Type.Integer({ minimum: 0 })),
      owner: Type.Optional(Type.String({ format: "email" })),
      note: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
      port: Type.Optional(CrdType.IntOrString({ description: "A port number or name." })),
      labels: Type.Optional(
        Type.Record(Type.String(), Type.String(), { "x-kubernetes-map-type": "granular" }),
      ),
      parts: Type.Optional(
        Type.Array(Type.Object({ name: Type.String(), count: Type.Integer() }), {
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
        }),
      ),
      tags: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "set" })),
      extra: Type.Optional(CrdType.PreserveUnknownFields()),
      template: Type.Optional(CrdType.EmbeddedResource()),
    },
    {
      "x-kubernetes-validations": [
        {
          rule: "!has(self.replicas) || self.replicas <= self.size",
          message: "replicas must not exceed size",
        },
      ],
    },
  );
  const status = Type.Object({
    replicas: Type.Optional(Type.Integer()),
    phase: Type.Optional(Type.String()),
    observedAt: Type.Optional(Type.String({ format: "date-time" })),
    conditions: Type.Optional(
      Type.Array(
        Type.Object({
          type: Type.String(),
          status: Type.Enum(["True", "False", "Unknown"]),
          reason: Type.Optional(Type.String()),
        }),
        { "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["type"] },
      ),
    ),
  });
  return defineCustomResource({
    group,
    kind: "Widget",
    scope: "Namespaced",
    shortNames: ["wdg"],
    categories: ["kubesdk-test"],
    subresources: {
      status: true,
      scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
    },
    versions: {
      v1alpha1: {
        schema: Type.Object({ spec: Type.Object({ size: Type.Integer() }) }),
        served: true,
        deprecated: true,
        deprecationWarning: "use v1",
      },
      v1: {
        schema: Type.Object({ spec, status: Type.Optional(status) }),
        storage: true,
        printerColumns: [
          { name: "Size", type: "integer", jsonPath: ".spec.size" },
          { name: "Color", type: "string", jsonPath: ".spec.color", priority: 1 },
        ],
      },
    },
  });
}
