/**
 * CEL types for a structural schema, the way the apiserver declares them for
 * CRD rules: integer → int, number → double, string → string (timestamp for
 * the date and date-time formats, duration for duration, bytes for byte), arrays → list, objects with
 * properties → an object type with one field per property (a resource root and
 * embedded resources also get apiVersion, kind and metadata.name/generateName),
 * objects with additionalProperties → map(string, …), int-or-string and
 * untyped preserve-unknown-fields values → dyn. Every declaration knows how to
 * turn the decoded JSON into the value the evaluator expects (ints as bigint,
 * objects as instances of their type).
 */
import { setMember } from "@kubesdk/models/internal";
import type { Environment } from "@marcbachmann/cel-js";
import {
  additionalPropertiesOf,
  isEmbeddedResource,
  isIntOrString,
  isObject,
  itemsOf,
  type JsonSchema,
  preservesUnknown,
  propertiesOf,
} from "../crd/json-schema.js";
import { celFieldName } from "./escaping.js";
import { schemaDuration } from "./library/duration.js";
import { celEquals } from "./library/values.js";

export interface CelDecl {
  /** The type as the evaluator spells it: int, list<T>, map<string, T>, an object type's name, dyn. */
  readonly type: string;
  /** Decoded JSON → the evaluator's value for this type. */
  readonly toCel: (v: unknown) => unknown;
}

/** A decoded JSON number in a dyn context: integers are CEL ints, the rest doubles. */
export function dynToCel(v: unknown): unknown {
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(dynToCel);
  if (isObject(v)) return celMap(v, dynToCel);
  return v;
}

/**
 * A CEL map of a decoded JSON object, its values converted. cel-js takes a plain object as a map
 * but tells maps by their `constructor`, so an object with a "constructor" key becomes a Map (which
 * it also takes); a "__proto__" key is defined, not assigned, so it stays a key.
 */
function celMap(v: Record<string, unknown>, convert: (x: unknown) => unknown): unknown {
  if (Object.hasOwn(v, "constructor")) return new Map(Object.entries(v).map(([k, x]) => [k, convert(x)]));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) setMember(out, k, convert(x));
  return out;
}

const STRING: CelDecl = { type: "string", toCel: (v) => v };
const BOOL: CelDecl = { type: "bool", toCel: (v) => v };
const DOUBLE: CelDecl = { type: "double", toCel: (v) => v };
const INT: CelDecl = {
  type: "int",
  toCel: (v) => (typeof v === "number" && Number.isInteger(v) ? BigInt(v) : v),
};
const DYN: CelDecl = { type: "dyn", toCel: dynToCel };
const TIMESTAMP: CelDecl = {
  type: "google.protobuf.Timestamp",
  toCel: (v) => {
    if (typeof v !== "string") return v;
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? v : d;
  },
};
const DURATION: CelDecl = {
  type: "google.protobuf.Duration",
  toCel: (v) => (typeof v === "string" ? (schemaDuration(v) ?? v) : v),
};
const BYTES: CelDecl = {
  type: "bytes",
  toCel: (v) => (typeof v === "string" ? new Uint8Array(Buffer.from(v, "base64")) : v),
};

/** The properties the apiserver adds to a resource root and to embedded resources. */
const TYPE_AND_OBJECT_META: Record<string, JsonSchema> = {
  apiVersion: { type: "string" } as JsonSchema,
  kind: { type: "string" } as JsonSchema,
  metadata: {
    type: "object",
    properties: { name: { type: "string" }, generateName: { type: "string" } },
  } as JsonSchema,
};

/**
 * Declares the CEL types of one schema tree in one environment. Declarations are
 * memoised per schema node, so a rule deep in the tree types `self` with the same
 * declaration its ancestors' types use.
 */
export class SchemaTypes {
  private readonly decls = new WeakMap<JsonSchema, CelDecl>();
  private count = 0;

  constructor(
    private readonly env: Environment,
    private readonly prefix: string,
  ) {}

  /** The type of a node; `resourceRoot` adds apiVersion, kind and metadata as upstream does for the root. */
  declare(s: JsonSchema, resourceRoot = false): CelDecl {
    if (resourceRoot) return this.object(s, true);
    const known = this.decls.get(s);
    if (known) return known;
    const decl = this.build(s);
    this.decls.set(s, decl);
    return decl;
  }

  private build(s: JsonSchema): CelDecl {
    if (isIntOrString(s)) return DYN;
    switch (s.type) {
      case "integer":
        return INT;
      case "number":
        return DOUBLE;
      case "boolean":
        return BOOL;
      case "string":
        if (s.format === "date" || s.format === "date-time") return TIMESTAMP;
        if (s.format === "duration") return DURATION;
        return s.format === "byte" ? BYTES : STRING;
      case "array":
        return this.list(s);
      case "object":
        if (isEmbeddedResource(s)) return this.object(s, true);
        if (additionalPropertiesOf(s)) return this.map(s);
        if (Object.keys(propertiesOf(s)).length === 0 && preservesUnknown(s)) return DYN;
        return this.object(s, false);
      default:
        return DYN;
    }
  }

  private list(s: JsonSchema): CelDecl {
    const items = itemsOf(s);
    const elem = items ? this.declare(items) : DYN;
    return {
      type: `list<${elem.type}>`,
      toCel: (v) => (Array.isArray(v) ? v.map(elem.toCel) : v),
    };
  }

  private map(s: JsonSchema): CelDecl {
    const additional = additionalPropertiesOf(s) as JsonSchema;
    const elem = this.declare(additional);
    return {
      type: `map<string, ${elem.type}>`,
      toCel: (v) => (isObject(v) ? celMap(v, elem.toCel) : v),
    };
  }

  private object(s: JsonSchema, withMeta: boolean): CelDecl {
    const props = withMeta ? { ...propertiesOf(s), ...TYPE_AND_OBJECT_META } : propertiesOf(s);
    const name = `${this.prefix}${this.count++}`;
    const fields: Record<string, string> = {};
    const convert = new Map<string, { cel: string; decl: CelDecl }>();
    for (const [json, child] of Object.entries(props)) {
      const cel = celFieldName(json);
      if (cel === undefined) continue;
      const decl = this.declare(child);
      fields[cel] = decl.type;
      convert.set(json, { cel, decl });
    }
    // One class per object type: the evaluator tells object types apart by constructor.
    const Ctor = class extends Map<string, unknown> {};
    Object.defineProperty(Ctor, "name", { value: name });
    this.env.registerType(name, { ctor: Ctor, fields });
    // CEL compares objects field by field; the evaluator knows equality of its own types only
    // (registering == gives != too).
    this.env.registerOperator(`${name} == ${name}`, (a: unknown, b: unknown) => celEquals(a, b));
    return {
      type: name,
      toCel: (v) => {
        if (!isObject(v)) return v;
        const entries: [string, unknown][] = [];
        for (const [json, x] of Object.entries(v)) {
          const f = convert.get(json);
          if (f && x !== undefined) entries.push([f.cel, x === null ? null : f.decl.toCel(x)]);
        }
        return new Ctor(entries);
      },
    };
  }
}
