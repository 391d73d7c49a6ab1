/**
 * Schema metadata for merges and server-side apply: walk an object alongside its type.
 *
 *   const node = schemaFor({ group: "apps", version: "v1", kind: "Deployment" });
 *   const containers = fieldOf(fieldOf(fieldOf(fieldOf(node, "spec"), "template"), "spec"), "containers");
 *   listSemantics(containers) // { type: "map", keys: ["name"] }
 *
 * Nodes for named types are shared; a field whose reference carries its own extensions (e.g. a
 * `retainKeys` patch strategy) gets a node with those merged over the named type's.
 */
import { ModelsError } from "./errors.js";
import { schemaTypesJson } from "./generated/schema.js";
import type { GroupVersionKind } from "./gvk.js";
import type { MergeAttributes, RawSchemaNode, ScalarMarker, ScalarType, ValueKind } from "./schema-data.js";
import { LineJsonTypes, type RawTypes, recordTypes } from "./schema-source.js";

export type { MergeAttributes, ScalarMarker, ScalarType, ValueKind } from "./schema-data.js";

export interface TypeNode extends MergeAttributes {
  readonly kind: ValueKind;
  /** Component name of a named type, e.g. "io.k8s.api.apps.v1.Deployment"; undefined inline. */
  readonly name: string | undefined;
  readonly scalar: ScalarType | undefined;
  /** OpenAPI format such as "int32", "date-time", "byte". */
  readonly format: string | undefined;
  /** Values that need special (de)serialisation: int-or-string, quantity, time, micro-time, date, bytes. */
  readonly marker: ScalarMarker | undefined;
  /** Field names of a struct, in schema order; empty otherwise. */
  readonly fieldNames: readonly string[];
  /** Required fields of a struct. */
  readonly required: readonly string[];
  readonly gvks: readonly GroupVersionKind[];
}

export interface ListSemantics {
  readonly type: "atomic" | "set" | "map";
  /** Key fields when type is "map". */
  readonly keys: readonly string[];
}

const untypedRaw: RawSchemaNode = { kind: "untyped" };

class SchemaNode implements TypeNode {
  readonly kind: ValueKind;
  readonly name: string | undefined;
  readonly scalar: ScalarType | undefined;
  readonly format: string | undefined;
  readonly marker: ScalarMarker | undefined;
  readonly listType: MergeAttributes["listType"];
  readonly listMapKeys: MergeAttributes["listMapKeys"];
  readonly patchStrategy: string | undefined;
  readonly patchMergeKey: string | undefined;
  readonly mapType: MergeAttributes["mapType"];
  readonly preserveUnknownFields: true | undefined;
  readonly embeddedResource: true | undefined;
  readonly fieldNames: readonly string[];
  readonly required: readonly string[];
  readonly gvks: readonly GroupVersionKind[];
  readonly #raw: RawSchemaNode;
  readonly #index: SchemaIndex;
  #fields: Map<string, SchemaNode> | undefined;
  #child: SchemaNode | undefined;

  constructor(raw: RawSchemaNode, name: string | undefined, index: SchemaIndex) {
    this.#raw = raw;
    this.#index = index;
    this.kind = raw.kind ?? "untyped";
    this.name = name;
    this.scalar = raw.scalar;
    this.format = raw.format;
    this.marker = raw.marker;
    this.listType = raw.listType;
    this.listMapKeys = raw.listMapKeys;
    this.patchStrategy = raw.patchStrategy;
    this.patchMergeKey = raw.patchMergeKey;
    this.mapType = raw.mapType;
    this.preserveUnknownFields = raw.preserveUnknownFields;
    this.embeddedResource = raw.embeddedResource;
    this.fieldNames = raw.fields ? Object.keys(raw.fields) : [];
    this.required = raw.required ?? [];
    this.gvks = (raw.gvks ?? []).map(([group, version, kind]) => ({ group, version, kind }));
  }

  field(name: string): SchemaNode | undefined {
    switch (this.kind) {
      case "struct": {
        this.#fields ??= new Map();
        let node = this.#fields.get(name);
        // Own fields only: "constructor" or "toString" in an object is not a field of its type.
        const fields = this.#raw.fields;
        const raw = fields && Object.hasOwn(fields, name) ? fields[name] : undefined;
        if (!node && raw) {
          node = this.#index.resolve(raw);
          this.#fields.set(name, node);
        }
        // Unknown fields of a preserve-unknown-fields struct are untyped.
        return node ?? (this.preserveUnknownFields ? this.#index.resolve(untypedRaw) : undefined);
      }
      case "map":
        return this.#childOf(this.#raw.values);
      case "untyped":
        return this.#index.resolve(untypedRaw);
      default:
        return undefined;
    }
  }

  item(): SchemaNode | undefined {
    if (this.kind === "list") return this.#childOf(this.#raw.items);
    return this.kind === "untyped" ? this.#index.resolve(untypedRaw) : undefined;
  }

  #childOf(raw: RawSchemaNode | undefined): SchemaNode {
    this.#child ??= this.#index.resolve(raw ?? untypedRaw);
    return this.#child;
  }
}

/** Schema metadata by component name; build one with the generated JSON or use `builtinSchemas()`. */
export class SchemaIndex {
  readonly #raw: RawTypes;
  readonly #namedNodes = new Map<string, SchemaNode>();
  readonly #sites = new WeakMap<RawSchemaNode, SchemaNode>();

  constructor(types: Readonly<Record<string, RawSchemaNode>>) {
    this.#raw = types instanceof LineJsonTypes ? types : recordTypes(types);
  }

  /** Every component name, e.g. "io.k8s.api.core.v1.Pod". */
  typeNames(): readonly string[] {
    return this.#raw.names();
  }

  typeNode(name: string): TypeNode | undefined {
    return this.#named(name);
  }

  /** The type of a built-in kind; undefined for kinds the schema does not know (custom resources). */
  schemaFor(gvk: GroupVersionKind): TypeNode | undefined {
    const name = this.#raw.kinds().get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
    return name === undefined ? undefined : this.typeNode(name);
  }

  /** @internal Turns a raw reference or inline node into a TypeNode. */
  resolve(raw: RawSchemaNode): SchemaNode {
    if (raw.ref === undefined) return this.#site(raw, raw, undefined);
    const named = this.#named(raw.ref);
    if (!named) throw new ModelsError("UNKNOWN_SCHEMA_TYPE", `schema references unknown type ${raw.ref}`);
    const { ref, ...siteAttributes } = raw;
    if (Object.keys(siteAttributes).length === 0) return named;
    return this.#site(raw, { ...this.#raw.get(ref), ...siteAttributes }, ref);
  }

  #site(key: RawSchemaNode, raw: RawSchemaNode, name: string | undefined): SchemaNode {
    let node = this.#sites.get(key);
    if (!node) {
      node = new SchemaNode(raw, name, this);
      this.#sites.set(key, node);
    }
    return node;
  }

  #named(name: string): SchemaNode | undefined {
    const cached = this.#namedNodes.get(name);
    if (cached) return cached;
    const raw = this.#raw.get(name);
    if (!raw) return undefined;
    if (raw.ref !== undefined) {
      throw new ModelsError("UNKNOWN_SCHEMA_TYPE", `${name} is an alias, which the schema data never uses`);
    }
    const node = new SchemaNode(raw, name, this);
    this.#namedNodes.set(name, node);
    return node;
  }
}

let builtin: SchemaIndex | undefined;

/**
 * Schema metadata of the built-in types of the pinned Kubernetes release: each type is parsed when
 * first used (schema-source.ts).
 */
export function builtinSchemas(): SchemaIndex {
  // The constructor takes the line reader as it is (its parameter type stays the public record form).
  builtin ??= new SchemaIndex(new LineJsonTypes(schemaTypesJson) as unknown as Record<string, RawSchemaNode>);
  return builtin;
}

/** A built-in named type, e.g. typeNode("io.k8s.api.core.v1.Container"). */
export function typeNode(name: string): TypeNode | undefined {
  return builtinSchemas().typeNode(name);
}

/** The type of a built-in kind. */
export function schemaFor(gvk: GroupVersionKind): TypeNode | undefined {
  return builtinSchemas().schemaFor(gvk);
}

/**
 * The type of `name` inside `node`: a struct's field, a map's value type (any key), an untyped
 * node for anything under an untyped node; undefined for unknown fields and for scalars/lists.
 */
export function fieldOf(node: TypeNode, name: string): TypeNode | undefined {
  return asSchemaNode(node).field(name);
}

/** The element type of a list (untyped under an untyped node); undefined otherwise. */
export function itemOf(node: TypeNode): TypeNode | undefined {
  return asSchemaNode(node).item();
}

/**
 * How a list merges: `x-kubernetes-list-type` when present; otherwise the legacy patch strategy
 * (merge with a merge key → map keyed by it, merge without one → set); otherwise atomic.
 */
export function listSemantics(node: TypeNode): ListSemantics {
  if (node.listType === "map") return { type: "map", keys: node.listMapKeys ?? [] };
  if (node.listType) return { type: node.listType, keys: [] };
  const strategies = (node.patchStrategy ?? "").split(",");
  if (strategies.includes("merge")) {
    return node.patchMergeKey ? { type: "map", keys: [node.patchMergeKey] } : { type: "set", keys: [] };
  }
  return { type: "atomic", keys: [] };
}

/** How a map or struct merges: `x-kubernetes-map-type`, granular by default. */
export function mapSemantics(node: TypeNode): "atomic" | "granular" {
  return node.mapType ?? "granular";
}

function asSchemaNode(node: TypeNode): SchemaNode {
  if (!(node instanceof SchemaNode)) {
    throw new ModelsError("NOT_A_SCHEMA_NODE", "expected a TypeNode obtained from a SchemaIndex");
  }
  return node;
}
