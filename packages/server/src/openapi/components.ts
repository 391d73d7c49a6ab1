/**
 * OpenAPI v3 component schemas of built-in types, generated from the schema
 * metadata in @kubesdk/models: types, formats, required fields, the
 * x-kubernetes-* merge extensions and x-kubernetes-group-version-kind, in the
 * layout the apiserver publishes (properties that reference a named type use
 * `allOf: [{$ref}]`, list items and map values a plain `$ref`). No
 * descriptions: the repository carries none of upstream's prose (but ObjectMeta's fields, described
 * in our own words by meta-descriptions.ts).
 */
import { fieldOf, itemOf, type TypeNode, typeNode } from "@kubesdk/models";
import { OBJECT_META, OBJECT_META_DESCRIPTIONS } from "./meta-descriptions.js";

export type OpenApiSchema = Record<string, unknown>;

export const refTo = (name: string): string => `#/components/schemas/${name}`;

/** Collects named component schemas, pulling in every type they reference. */
export class ComponentSet {
  readonly schemas = new Map<string, OpenApiSchema>();
  private readonly pending: string[] = [];

  /** Adds a named built-in type (and, transitively, what it references). */
  add(name: string): void {
    this.want(name);
    for (let next = this.pending.pop(); next !== undefined; next = this.pending.pop()) {
      const node = typeNode(next);
      this.schemas.set(next, node ? this.inline(node) : { type: "object" });
    }
  }

  /** Puts a schema under a name as is (custom resources). */
  put(name: string, schema: OpenApiSchema): void {
    this.schemas.set(name, schema);
  }

  /** Sorted, as upstream orders components. */
  toObject(): Record<string, OpenApiSchema> {
    return Object.fromEntries([...this.schemas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private want(name: string): void {
    if (!this.schemas.has(name) && !this.pending.includes(name)) {
      this.schemas.set(name, {});
      this.pending.push(name);
    }
  }

  /** A reference to a named node, or the node inline; `asProperty` picks upstream's allOf form. */
  private use(node: TypeNode | undefined, asProperty: boolean): OpenApiSchema {
    if (!node) return {};
    if (node.name === undefined) return this.inline(node);
    this.want(node.name);
    const site = siteExtensions(node);
    if (!asProperty && Object.keys(site).length === 0) return { $ref: refTo(node.name) };
    return { allOf: [{ $ref: refTo(node.name) }], ...site };
  }

  private inline(node: TypeNode): OpenApiSchema {
    const out: OpenApiSchema = {};
    switch (node.kind) {
      case "struct": {
        const properties: Record<string, OpenApiSchema> = {};
        const described = node.name === OBJECT_META ? OBJECT_META_DESCRIPTIONS : {};
        for (const f of node.fieldNames) {
          properties[f] = this.use(fieldOf(node, f), true);
          if (described[f] !== undefined) properties[f] = { ...properties[f], description: described[f] };
        }
        if (node.fieldNames.length > 0) out.properties = properties;
        if (node.required.length > 0) out.required = [...node.required];
        out.type = "object";
        break;
      }
      case "map":
        out.additionalProperties = this.use(fieldOf(node, "*"), false);
        out.type = "object";
        break;
      case "list":
        out.items = this.use(itemOf(node), false);
        out.type = "array";
        break;
      case "scalar":
        Object.assign(out, scalarSchema(node));
        break;
      case "untyped":
        out.type = "object";
        break;
    }
    Object.assign(out, extensionsOf(node));
    if (node.gvks.length > 0)
      out["x-kubernetes-group-version-kind"] = node.gvks.map((g) => ({
        group: g.group,
        kind: g.kind,
        version: g.version,
      }));
    return out;
  }
}

function scalarSchema(node: TypeNode): OpenApiSchema {
  switch (node.scalar) {
    case "int-or-string":
      return { format: "int-or-string", oneOf: [{ type: "integer" }, { type: "string" }] };
    case "number-or-string":
      return { oneOf: [{ type: "string" }, { type: "number" }] };
    default:
      return node.format ? { format: node.format, type: node.scalar } : { type: node.scalar };
  }
}

function extensionsOf(node: TypeNode): OpenApiSchema {
  const out: OpenApiSchema = {};
  if (node.embeddedResource) out["x-kubernetes-embedded-resource"] = true;
  if (node.listMapKeys && node.listMapKeys.length > 0)
    out["x-kubernetes-list-map-keys"] = [...node.listMapKeys];
  if (node.listType) out["x-kubernetes-list-type"] = node.listType;
  if (node.mapType) out["x-kubernetes-map-type"] = node.mapType;
  if (node.patchMergeKey) out["x-kubernetes-patch-merge-key"] = node.patchMergeKey;
  if (node.patchStrategy) out["x-kubernetes-patch-strategy"] = node.patchStrategy;
  if (node.preserveUnknownFields) out["x-kubernetes-preserve-unknown-fields"] = true;
  return out;
}

/** Extensions a referencing field adds to its named type (e.g. a retainKeys patch strategy). */
function siteExtensions(node: TypeNode): OpenApiSchema {
  const named = node.name === undefined ? undefined : typeNode(node.name);
  if (!named || named === node) return {};
  const mine = extensionsOf(node);
  const theirs = extensionsOf(named);
  const out: OpenApiSchema = {};
  for (const [k, v] of Object.entries(mine)) if (JSON.stringify(theirs[k]) !== JSON.stringify(v)) out[k] = v;
  return out;
}
