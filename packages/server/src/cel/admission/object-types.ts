/**
 * Fixed CEL object types of the admission environment (the request, the user, the namespace),
 * declared from a small description: each type is registered once in an environment, and each
 * knows how to turn decoded JSON into the evaluator's instance of it (a field the JSON lacks is
 * left out, as for CRD objects; ints become bigints, timestamps Dates).
 */
import type { Environment } from "@marcbachmann/cel-js";
import { dynToCel } from "../schema-types.js";

/** A field: a scalar CEL type name, a nested object type, or a list of one. */
export type FieldSpec = string | ObjectSpec | { readonly listOf: ObjectSpec };

export interface ObjectSpec {
  readonly name: string;
  readonly fields: Readonly<Record<string, FieldSpec>>;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

type ObjectCtor = new (entries: [string, unknown][]) => Map<string, unknown>;

const SHARED = new Map<string, ObjectCtor>();

/** The registered constructors of one environment, by type name. */
export class ObjectTypes {
  private readonly ctors = new Map<string, ObjectCtor>();

  constructor(private readonly env: Environment) {}

  /** Registers `spec` (and the types it nests) in the environment; returns its CEL type name. */
  declare(spec: ObjectSpec): string {
    if (this.ctors.has(spec.name)) return spec.name;
    const fields: Record<string, string> = {};
    for (const [k, f] of Object.entries(spec.fields)) fields[k] = this.typeOf(f);
    // One class per object type, shared by every environment: the evaluator tells object types
    // apart by constructor, and a value built once (`request`) is read by programs of several
    // environments (a messageExpression's has no authorizer).
    let Ctor = SHARED.get(spec.name);
    if (!Ctor) {
      Ctor = class extends Map<string, unknown> {};
      Object.defineProperty(Ctor, "name", { value: spec.name });
      SHARED.set(spec.name, Ctor);
    }
    this.env.registerType(spec.name, { ctor: Ctor, fields });
    this.ctors.set(spec.name, Ctor);
    return spec.name;
  }

  private typeOf(f: FieldSpec): string {
    if (typeof f === "string") return f;
    if ("listOf" in f) return `list<${this.declare(f.listOf)}>`;
    return this.declare(f);
  }

  /** Decoded JSON → the instance of `spec` (null stays null). */
  value(spec: ObjectSpec, json: unknown): unknown {
    if (!isRecord(json)) return json ?? null;
    const Ctor = this.ctors.get(spec.name);
    if (!Ctor) throw new Error(`CEL type ${spec.name} is not declared`);
    const entries: [string, unknown][] = [];
    for (const [k, f] of Object.entries(spec.fields)) {
      const v = json[k];
      if (v !== undefined) entries.push([k, this.fieldValue(f, v)]);
    }
    return new Ctor(entries);
  }

  private fieldValue(f: FieldSpec, v: unknown): unknown {
    if (v === null) return null;
    if (typeof f !== "string") {
      if ("listOf" in f) return Array.isArray(v) ? v.map((x) => this.value(f.listOf, x)) : v;
      return this.value(f, v);
    }
    if (f === "google.protobuf.Timestamp" && typeof v === "string") return new Date(v);
    return dynToCel(v);
  }
}
