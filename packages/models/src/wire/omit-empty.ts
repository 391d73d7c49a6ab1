/**
 * Which fields of a built-in type Go's encoding/json leaves out when they are empty: the
 * `omitempty` fields whose Go type is a (non-pointer) slice or map. kube-apiserver decodes a write
 * into the Go struct and stores what it encodes, so `data: {}` or `taints: []` sent for such a
 * field is stored as no field at all. (No built-in field is a pointer to a slice or map, whose
 * empty value Go would keep; the check below keeps such a field all the same.)
 */
import { goFieldFactsOf } from "./field-facts.js";

const NONE: ReadonlySet<string> = new Set();
const byType = new Map<string, ReadonlySet<string>>();

/**
 * JSON names of the fields of the named schema type (e.g. "io.k8s.api.core.v1.ConfigMap") that
 * are absent from Go's JSON when empty; an empty set for types without Go field facts.
 */
export function omittedWhenEmpty(typeName: string): ReadonlySet<string> {
  let fields = byType.get(typeName);
  if (fields === undefined) {
    fields = collect(typeName);
    byType.set(typeName, fields);
  }
  return fields;
}

function collect(typeName: string): ReadonlySet<string> {
  const facts = goFieldFactsOf(protoMessageName(typeName));
  if (!facts) return NONE;
  const names = new Set<string>();
  for (const f of facts.values())
    if (f.omitEmpty && !f.pointer && (f.kind === "slice" || f.kind === "map")) names.add(f.json);
  return names.size === 0 ? NONE : names;
}

/** "io.k8s.kube-aggregator.pkg…APIService" → "k8s.io.kube_aggregator.pkg…APIService" (the proto package). */
function protoMessageName(typeName: string): string {
  if (!typeName.startsWith("io.k8s.")) return typeName;
  return `k8s.io.${typeName.slice("io.k8s.".length).replaceAll("-", "_")}`;
}
