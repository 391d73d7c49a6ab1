/**
 * A built-in object as Go's encoding writes it, which is what kube-apiserver stores and answers.
 * Left out: what an `omitempty` field holds when empty (`null`, `""`, `0`, `false`, `[]`, `{}`;
 * a pointer's zero value stays). Written although the object may not hold it: a field without
 * `omitempty` gets its zero value (`""`, `0`, `false`, `null`; `null` too for an empty slice or map,
 * which kube-apiserver's protobuf storage cannot tell from none), and a non-pointer struct is
 * always there, with its own such fields (a Node's `status.daemonEndpoints.kubeletEndpoint.Port:
 * 0`, a StatefulSet's `spec.serviceName: ""`, a DaemonSet's status counters, a Role's `rules: null`).
 * The write path encodes after the managed fields are computed: kube-apiserver's field manager
 * compares with the kind's zero object, which has all these, so no manager owns one.
 */
import { fieldOf, type GroupVersionKind, itemOf, schemaFor, type TypeNode } from "@kubesdk/models";
import { type GoWritten, omittedWhenEmpty, writtenWhenAbsent } from "@kubesdk/models/internal";
import { isEmptyCollection } from "./typed-decode.js";

/**
 * The object of type `schema` as Go's encoding writes it, and all it holds. Copies only what
 * changes (the rest may be shared with a stored object): the object itself when nothing does.
 */
export function withGoEncoding<T extends Record<string, unknown>>(obj: T, schema: TypeNode): T {
  return encodedStruct(obj, schema) as T;
}

/** `obj` as Go's encoding of the built-in kind `gvk` writes it; as it is for a kind without a schema. */
export function goEncodedAs<T extends Record<string, unknown>>(obj: T, gvk: GroupVersionKind): T {
  const schema = schemaFor(gvk);
  return schema ? withGoEncoding(obj, schema) : obj;
}

function encodedValue(v: unknown, node: TypeNode | undefined): unknown {
  if (node === undefined || v === null || typeof v !== "object") return v;
  if (node.kind === "list") {
    const item = itemOf(node);
    if (!Array.isArray(v) || item === undefined || item.kind === "scalar" || item.kind === "untyped")
      return v;
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = encodedValue(v[i], item);
      if (x === v[i]) continue;
      out ??= v.slice();
      out[i] = x;
    }
    return out ?? v;
  }
  if ((node.kind === "struct" || node.kind === "map") && !Array.isArray(v))
    return encodedStruct(v as Record<string, unknown>, node);
  return v;
}

const NOTHING_WRITTEN: GoWritten = { fields: [], names: new Set() };

function encodedStruct(obj: Record<string, unknown>, node: TypeNode): Record<string, unknown> {
  const name = node.kind === "struct" ? node.name : undefined;
  const written = name === undefined ? NOTHING_WRITTEN : writtenWhenAbsent(name);
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (name !== undefined && leftOut(v, k, name, written)) {
      out ??= { ...obj };
      delete out[k];
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    const x = encodedValue(v, fieldOf(node, k));
    if (x === v) continue;
    out ??= { ...obj };
    out[k] = x;
  }
  for (const f of written.fields) {
    const v = (out ?? obj)[f.json];
    let zero: unknown;
    if (f.zero === "collection") {
      if (v !== undefined && (v === null || !isEmptyCollection(v))) continue;
      zero = null;
    } else if (f.zero === "pointer") {
      if (v !== undefined) continue;
      zero = null;
    } else {
      if (v !== undefined && v !== null) continue;
      zero = zeroOf(fieldOf(node, f.json), f.zero === "struct");
      if (zero === undefined) continue;
    }
    out ??= { ...obj };
    out[f.json] = zero;
  }
  return out ?? obj;
}

/** Whether the `omitempty` field `k` of the named type holds an empty value Go leaves out. */
function leftOut(v: unknown, k: string, typeName: string, written: GoWritten): boolean {
  if (v === null) return !written.names.has(k) && omittedWhenEmpty(typeName).null.has(k);
  if (v === "" || v === 0 || v === false) {
    const omitted = omittedWhenEmpty(typeName);
    return omitted.zero.has(k) || (v === "" && omitted.empty.has(k));
  }
  return isEmptyCollection(v) && omittedWhenEmpty(typeName).empty.has(k);
}

/**
 * A field's zero value as Go writes it; undefined where that is not known (left as it is). A Go
 * struct the schema shows as a scalar writes its own JSON: known only for the marked ones.
 */
function zeroOf(node: TypeNode | undefined, struct: boolean): unknown {
  if (node === undefined) return undefined;
  if (node.kind === "struct") return encodedStruct({}, node);
  if (node.kind !== "scalar") return undefined;
  // Types with their own JSON: a zero Time is null, a zero Quantity "0", a zero IntOrString 0.
  switch (node.marker) {
    case "time":
    case "micro-time":
    case "bytes":
      return null;
    case "quantity":
      return "0";
    case "int-or-string":
      return 0;
    case undefined:
      if (struct) return undefined;
      break;
    default:
      return undefined;
  }
  if (node.format === "byte") return null;
  if (node.scalar === "string") return "";
  if (node.scalar === "integer" || node.scalar === "number") return 0;
  if (node.scalar === "boolean") return false;
  return undefined;
}
