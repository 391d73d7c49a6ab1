/**
 * The serialised form of the schema metadata in generated/schema.ts (internal; src/schema.ts turns
 * it into TypeNodes). A node is either a reference to a named type, possibly with merge attributes
 * of the reference site, or an inline node.
 */
export type ValueKind = "scalar" | "struct" | "map" | "list" | "untyped";
export type ScalarType = "string" | "integer" | "number" | "boolean" | "int-or-string" | "number-or-string";
export type ScalarMarker = "int-or-string" | "quantity" | "time" | "micro-time" | "date" | "bytes";

export interface MergeAttributes {
  readonly listType?: "atomic" | "set" | "map";
  readonly listMapKeys?: readonly string[];
  readonly patchStrategy?: string;
  readonly patchMergeKey?: string;
  readonly mapType?: "atomic" | "granular";
  readonly preserveUnknownFields?: true;
  readonly embeddedResource?: true;
}

export interface RawSchemaNode extends MergeAttributes {
  /** Named type this node stands for; the other fields then only carry site attributes. */
  readonly ref?: string;
  readonly kind?: ValueKind;
  readonly scalar?: ScalarType;
  readonly format?: string;
  readonly marker?: ScalarMarker;
  readonly fields?: Readonly<Record<string, RawSchemaNode>>;
  readonly required?: readonly string[];
  /** [group, version, kind] triples of x-kubernetes-group-version-kind. */
  readonly gvks?: readonly (readonly [string, string, string])[];
  readonly values?: RawSchemaNode;
  readonly items?: RawSchemaNode;
}
