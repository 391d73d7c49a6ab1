/**
 * Schema types a CRD has and plain JSON Schema has not, built on TypeBox's `Type.Unsafe` (a
 * schema with a declared static type): each carries its `x-kubernetes-*` marker into the CRD.
 */
import type { metaV1 } from "@kubesdk/models";
import Type, { type TSchemaOptions, type TUnsafe } from "typebox";

/** `x-kubernetes-int-or-string`: an integer or a string, e.g. a port number or name. */
function IntOrString(options: TSchemaOptions = {}): TUnsafe<number | string> {
  return Type.Unsafe<number | string>({ ...options, "x-kubernetes-int-or-string": true });
}

/** An object whose fields are not described and are kept as given (`x-kubernetes-preserve-unknown-fields`). */
function PreserveUnknownFields(options: TSchemaOptions = {}): TUnsafe<Record<string, unknown>> {
  return Type.Unsafe<Record<string, unknown>>({
    ...options,
    type: "object",
    "x-kubernetes-preserve-unknown-fields": true,
  });
}

/** A whole Kubernetes object inside this one (`x-kubernetes-embedded-resource`), e.g. a template. */
function EmbeddedResource(options: TSchemaOptions = {}): TUnsafe<EmbeddedObject> {
  return Type.Unsafe<EmbeddedObject>({
    ...options,
    type: "object",
    "x-kubernetes-embedded-resource": true,
    "x-kubernetes-preserve-unknown-fields": true,
  });
}

/**
 * `status.conditions` as Kubernetes API conventions write it: a list of metav1.Condition keyed by
 * `type` (a list-map, so server-side apply merges one condition per writer), typed as
 * `metaV1.Condition[]` so the controller package's `setCondition` and `applyStatus` take it as is.
 */
function Conditions(options: TSchemaOptions = {}): TUnsafe<metaV1.Condition[]> {
  const text = { type: "string" };
  return Type.Unsafe<metaV1.Condition[]>({
    ...options,
    type: "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": ["type"],
    items: {
      type: "object",
      required: ["type", "status", "lastTransitionTime", "reason", "message"],
      properties: {
        type: { ...text, maxLength: 316 },
        status: { ...text, enum: ["True", "False", "Unknown"] },
        observedGeneration: { type: "integer", format: "int64", minimum: 0 },
        lastTransitionTime: { ...text, format: "date-time" },
        reason: { ...text, maxLength: 1024 },
        message: { ...text, maxLength: 32768 },
      },
    },
  });
}

/** An embedded object: apiVersion, kind and metadata, plus whatever fields its kind has. */
export interface EmbeddedObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** CRD-specific schema types to use beside TypeBox's `Type` in `defineCustomResource` schemas. */
export const CrdType = { IntOrString, PreserveUnknownFields, EmbeddedResource, Conditions } as const;
