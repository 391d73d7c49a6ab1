/**
 * Which fields of a built-in type Go's encoding/json leaves out: kube-apiserver decodes a write
 * into the Go struct and stores what it encodes, so `data: {}` or `taints: []` sent for an
 * `omitempty` slice or map field is stored as no field at all, and so is a `null` sent for an
 * `omitempty` field Go decodes to an empty value (any but a non-pointer struct, whose zero value
 * Go writes), and a `""`, `0` or `false` sent for an `omitempty` non-pointer scalar (Go cannot
 * tell it from no value, so defaulting fills it in as if absent). No built-in field is a pointer
 * to a slice or map, whose empty value Go would keep; the check below keeps such a field all the same.
 */
import { goJsonFactsOf } from "./field-facts.js";

export interface OmittedFields {
  /** JSON names of the fields absent when an empty list or map. */
  readonly empty: ReadonlySet<string>;
  /** JSON names of the fields absent when null (no value to Go; a written one is filled in later). */
  readonly null: ReadonlySet<string>;
  /** JSON names of the scalar fields absent when `""`, `0` or `false` (their Go zero value). */
  readonly zero: ReadonlySet<string>;
}

const NONE: OmittedFields = { empty: new Set(), null: new Set(), zero: new Set() };
const byType = new Map<string, OmittedFields>();

/**
 * The fields of the named schema type (e.g. "io.k8s.api.core.v1.ConfigMap") that are absent
 * from Go's JSON when empty or null; empty sets for types without Go field facts.
 */
export function omittedWhenEmpty(typeName: string): OmittedFields {
  let fields = byType.get(typeName);
  if (fields === undefined) {
    fields = collect(typeName);
    byType.set(typeName, fields);
  }
  return fields;
}

function collect(typeName: string): OmittedFields {
  const facts = goJsonFactsOf(protoMessageName(typeName));
  if (!facts) return NONE;
  const empty = new Set<string>();
  const nulls = new Set<string>();
  const zero = new Set<string>();
  for (const f of facts) {
    // A null is Go's nil or zero value: no value, whether Go leaves the field out or writes it
    // (go-written.ts writes those after the managed fields, so no manager owns a null).
    if (f.json !== "" && (f.pointer || f.kind !== "struct")) nulls.add(f.json);
    if (!f.omitEmpty) continue;
    // A []byte is a slice to Go: base64 "" decodes to an empty one, kept until encoded.
    if (!f.pointer && (f.kind === "slice" || f.kind === "map" || f.kind === "bytes")) empty.add(f.json);
    if (!f.pointer && f.kind === "scalar") zero.add(f.json);
  }
  return empty.size === 0 && nulls.size === 0 ? NONE : { empty, null: nulls, zero };
}

/** "io.k8s.kube-aggregator.pkg…APIService" → "k8s.io.kube_aggregator.pkg…APIService" (the proto package). */
export function protoMessageName(typeName: string): string {
  if (!typeName.startsWith("io.k8s.")) return typeName;
  return `k8s.io.${typeName.slice("io.k8s.".length).replaceAll("-", "_")}`;
}
