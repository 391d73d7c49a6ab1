/** Merge metadata for every component schema (generated/schema.ts), read by src/schema.ts. */
import type { RawSchemaNode } from "../../packages/models/src/schema-data.js";
import { type GenerationInfo, header, jsonTemplateLiteral } from "./render.js";
import type { Attrs, Shape } from "./shape.js";

export function emitSchema(shapes: ReadonlyMap<string, Shape>, info: GenerationInfo): string {
  const entries = [...shapes.entries()].map(([name, shape]) => [name, rawNode(shape)] as const);
  return [
    header(info, "OpenAPI v3 component schemas"),
    '/** RawSchemaNode JSON by component name, e.g. "io.k8s.api.apps.v1.Deployment". */',
    `export const schemaTypesJson: string = ${jsonTemplateLiteral(entries)};`,
    "",
  ].join("\n");
}

function rawNode(shape: Shape): RawSchemaNode {
  const attrs = attributes(shape);
  switch (shape.kind) {
    case "ref":
      return { ref: shape.target, ...attrs };
    case "scalar":
      return {
        kind: "scalar",
        scalar: shape.scalar,
        ...(shape.format ? { format: shape.format } : {}),
        ...(shape.marker ? { marker: shape.marker } : {}),
        ...attrs,
      };
    case "struct":
      return {
        kind: "struct",
        fields: Object.fromEntries(shape.fields.map((f) => [f.name, rawNode(f.shape)])),
        ...(shape.required.length ? { required: shape.required } : {}),
        ...(shape.gvks.length ? { gvks: shape.gvks.map((g) => [g.group, g.version, g.kind] as const) } : {}),
        ...attrs,
      };
    case "map":
      return { kind: "map", values: rawNode(shape.values), ...attrs };
    case "list":
      return { kind: "list", items: rawNode(shape.items), ...attrs };
    case "untyped":
      return { kind: "untyped", ...attrs };
  }
}

function attributes(shape: Attrs): Attrs {
  const out: Attrs = {};
  if (shape.listType) out.listType = shape.listType;
  if (shape.listMapKeys) out.listMapKeys = shape.listMapKeys;
  if (shape.patchStrategy) out.patchStrategy = shape.patchStrategy;
  if (shape.patchMergeKey) out.patchMergeKey = shape.patchMergeKey;
  if (shape.mapType) out.mapType = shape.mapType;
  if (shape.preserveUnknownFields) out.preserveUnknownFields = true;
  if (shape.embeddedResource) out.embeddedResource = true;
  return out;
}
