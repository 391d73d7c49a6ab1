/**
 * The structural schema of a custom resource version as a TypeNode, so
 * structured merge and managedFields treat CRs like built-ins: list types and
 * map keys, map types, int-or-string and preserve-unknown subtrees come from
 * the CRD's x-kubernetes-* extensions. `metadata` gets no schema here (the
 * CRD does not carry ObjectMeta), so its lists are atomic for CRs.
 */
import { SchemaIndex, type TypeNode } from "@kubesdk/models";
import type { ServedResource } from "../resources/served.js";

type Json = Record<string, unknown>;
type Raw = ConstructorParameters<typeof SchemaIndex>[0][string];

/** The scalar types of a schema kept as they are; any other scalar `type` is a string. */
const SCALARS = new Set(["integer", "number", "boolean"]);

function convert(s: Json): Raw {
  const common = {
    ...(s["x-kubernetes-list-type"]
      ? { listType: s["x-kubernetes-list-type"] as "atomic" | "set" | "map" }
      : {}),
    ...(Array.isArray(s["x-kubernetes-list-map-keys"])
      ? { listMapKeys: s["x-kubernetes-list-map-keys"] as string[] }
      : {}),
    ...(s["x-kubernetes-map-type"] ? { mapType: s["x-kubernetes-map-type"] as "atomic" | "granular" } : {}),
    ...(s["x-kubernetes-preserve-unknown-fields"] === true ? { preserveUnknownFields: true as const } : {}),
  };
  if (s["x-kubernetes-int-or-string"] === true)
    return { kind: "scalar", scalar: "int-or-string", marker: "int-or-string", ...common };
  const props = s.properties as Record<string, Json> | undefined;
  if (s.type === "object" || props || s.additionalProperties) {
    if (props) {
      const fields: Record<string, Raw> = {};
      for (const [k, v] of Object.entries(props)) fields[k] = convert(v);
      return { kind: "struct", fields, ...common };
    }
    if (typeof s.additionalProperties === "object" && s.additionalProperties !== null)
      return { kind: "map", values: convert(s.additionalProperties as Json), ...common };
    return { kind: "untyped", ...common };
  }
  if (s.type === "array") return { kind: "list", items: convert((s.items ?? {}) as Json), ...common };
  if (s.type === undefined) return { kind: "untyped", ...common };
  const scalar = SCALARS.has(s.type as string) ? s.type : "string";
  return { kind: "scalar", scalar, ...common } as Raw;
}

const cache = new WeakMap<object, TypeNode>();

export function customTypeNode(r: ServedResource): TypeNode | undefined {
  const schema = r.custom?.schema;
  if (!schema) return undefined;
  let node = cache.get(schema);
  if (!node) {
    const root = convert(schema as Json);
    node = new SchemaIndex({ custom: root }).typeNode("custom");
    if (!node) return undefined;
    cache.set(schema, node);
  }
  return node;
}
