/**
 * CEL types of built-in kinds, from the models' schema (TypeNode), for type-checking admission
 * expressions against the kinds a policy matches: structs → object types with one field per
 * property, maps → map(string, …), lists → list(…), strings, ints, doubles, bools, bytes,
 * timestamps for times; int-or-string, quantities and untyped values → dyn. A type met again on
 * its own path (recursive schemas) is dyn there.
 */
import { fieldOf, itemOf, type TypeNode } from "@kubesdk/models";
import type { Environment } from "@marcbachmann/cel-js";
import { celFieldName } from "../escaping.js";

function scalarType(node: TypeNode): string {
  switch (node.marker) {
    case "time":
    case "micro-time":
      return "google.protobuf.Timestamp";
    case "bytes":
      return "bytes";
    case "int-or-string":
    case "quantity":
      return "dyn";
    default:
  }
  switch (node.scalar) {
    case "string":
      return "string";
    case "integer":
      return "int";
    case "number":
      return "double";
    case "boolean":
      return "bool";
    default:
      return "dyn";
  }
}

/** Declares the types of one kind's schema in one environment. */
export class NativeTypes {
  private readonly named = new Map<TypeNode, string>();
  private readonly onPath = new Set<TypeNode>();
  private count = 0;

  constructor(
    private readonly env: Environment,
    private readonly prefix: string,
  ) {}

  /** The CEL type of a node, declaring the object types it needs. */
  typeOf(node: TypeNode | undefined): string {
    if (!node) return "dyn";
    switch (node.kind) {
      case "scalar":
        return scalarType(node);
      case "list":
        return `list<${this.typeOf(itemOf(node))}>`;
      case "map":
        return `map<string, ${this.typeOf(fieldOf(node, ""))}>`;
      case "struct":
        return this.struct(node);
      default:
        return "dyn";
    }
  }

  private struct(node: TypeNode): string {
    const known = this.named.get(node);
    if (known) return known;
    if (this.onPath.has(node)) return "dyn";
    this.onPath.add(node);
    const fields: Record<string, string> = {};
    for (const name of node.fieldNames) {
      const cel = celFieldName(name);
      if (cel !== undefined) fields[cel] = this.typeOf(fieldOf(node, name));
    }
    this.onPath.delete(node);
    const name = `${this.prefix}${this.count++}`;
    const Ctor = class extends Map<string, unknown> {};
    Object.defineProperty(Ctor, "name", { value: name });
    this.env.registerType(name, { ctor: Ctor, fields });
    this.named.set(node, name);
    return name;
  }
}
