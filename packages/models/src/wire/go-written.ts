/**
 * The fields of a built-in type Go's encoding/json writes whatever the object holds: a field
 * without `omitempty` is written with its zero value when Go's struct has none (`""`, `0`,
 * `false`, `null` for a nil slice, map or pointer), and a non-pointer struct is never left out
 * (`omitempty` does not apply to structs), so it is written with its own zero fields. A slice or
 * map without `omitempty` is also `null` when empty: kube-apiserver stores built-in kinds as
 * protobuf, which cannot tell an empty list from none, and answers what it decodes from there.
 * Fields with `omitzero` are left out when zero; an embedded struct's fields are the parent's (goJsonFactsOf).
 */
import { goJsonFactsOf } from "./field-facts.js";
import { protoMessageName } from "./omit-empty.js";

/** What Go writes for the field when the object has no value there. */
export type GoZero =
  /** A slice or map: `null`, and `null` for an empty one too. */
  | "collection"
  /** A pointer: `null`. */
  | "pointer"
  /** A non-pointer scalar or []byte: its zero value by the field's schema type. */
  | "scalar"
  /** A non-pointer struct: `{}` with its own written fields, or its custom JSON's zero. */
  | "struct";

export interface GoWrittenField {
  readonly json: string;
  readonly zero: GoZero;
}

export interface GoWritten {
  readonly fields: readonly GoWrittenField[];
  /** Their JSON names. */
  readonly names: ReadonlySet<string>;
}

const byType = new Map<string, GoWritten>();

/** The fields of the named schema type (e.g. "io.k8s.api.core.v1.NodeStatus") Go always writes. */
export function writtenWhenAbsent(typeName: string): GoWritten {
  let fields = byType.get(typeName);
  if (fields === undefined) {
    fields = collect(typeName);
    byType.set(typeName, fields);
  }
  return fields;
}

const NOTHING: GoWritten = { fields: [], names: new Set() };

function collect(typeName: string): GoWritten {
  const facts = goJsonFactsOf(protoMessageName(typeName));
  if (!facts) return NOTHING;
  const out: GoWrittenField[] = [];
  for (const f of facts) {
    if (f.json === "" || f.omitZero) continue;
    if (f.kind === "struct" && !f.pointer) out.push({ json: f.json, zero: "struct" });
    else if (f.omitEmpty) continue;
    else if (f.pointer) out.push({ json: f.json, zero: "pointer" });
    else if (f.kind === "slice" || f.kind === "map") out.push({ json: f.json, zero: "collection" });
    else out.push({ json: f.json, zero: "scalar" });
  }
  return out.length === 0 ? NOTHING : { fields: out, names: new Set(out.map((f) => f.json)) };
}
