/**
 * The decode of a built-in object in one walk along its kind's schema metadata: the type check
 * (typed-check.ts), the canonical quantities (quantities.ts) and the unknown fields with the
 * object pruned of them (typed-prune.ts). Each of those walked the whole object on its own, and
 * the prune copied it; this walk visits each value once and builds the one copy, so the result is
 * private to the request (nothing of the input is shared, untyped subtrees included) and the
 * input is never modified. The answers are the three walks' answers: a mismatch is worded by
 * typed-check.ts's own walk of the untouched input, so its text cannot differ. A null in a field Go
 * leaves out when empty is left out is left out: Go decodes it as no value; so is a `""`, `0` or
 * `false` in such a scalar field (Go cannot tell its zero value from none, so defaults fill it in).
 * An empty map, list or base64 `""` there is kept, since Go's validation sees it as set, and its
 * path noted: the write path drops it after validation (dropEmptied), as kube-apiserver's encoding
 * of the validated object does.
 */
import { canonicalQuantity, fieldOf, itemOf, type TypeNode } from "@kubesdk/models";
import { omittedWhenEmpty, setMember, writtenWhenAbsent } from "@kubesdk/models/internal";
import { copyDecoded } from "../api/copy.js";
import { base64ErrorAt, scalarMismatch } from "./typed-check.js";

export interface TypedDecode {
  /** A private copy of the object without unknown fields, its quantities in canonical form. */
  readonly object: Record<string, unknown>;
  /** Paths of the unknown fields, in document order (as pruneByType gives them). */
  readonly unknown: string[];
  /** The empty maps and lists in fields Go's encoding leaves out when empty (dropEmptied). */
  readonly emptied: Emptied[];
  /** The zero scalars in fields Go's encoding always writes (left out of the view a create's managed fields are computed from, drop-emptied.ts withoutEmptied). */
  readonly zeroed: Emptied[];
}

/** An empty map or list at `path`, the field `path`'s last key of the copy's object `container`. */
export interface Emptied {
  readonly path: readonly (string | number)[];
  readonly container: object;
}

/** What the walk notes besides the copy. */
type Found = Omit<TypedDecode, "object">;

/** Where a value sits, for an unknown field's path; joined only when one is found. */
interface At {
  readonly key: string | number;
  readonly up: At | undefined;
}

function keysOf(at: At | undefined, key: string): (string | number)[] {
  const keys: (string | number)[] = [key];
  for (let a = at; a !== undefined; a = a.up) keys.push(a.key);
  return keys.reverse();
}

function pathOf(at: At | undefined, key: string): string {
  let path = "";
  for (const k of keysOf(at, key))
    path = typeof k === "number" ? `${path}[${k}]` : path === "" ? k : `${path}.${k}`;
  return path;
}

/** Thrown inside the walk at the first value Go would not decode; the caller words it. */
class Mismatch extends Error {}
const MISMATCH = new Mismatch();

/** A scalar as stored: a quantity in canonical form; throws Mismatch where typed-check.ts fails it. */
function scalarValue(v: unknown, node: TypeNode): unknown {
  if (scalarMismatch(v, node) !== undefined) throw MISMATCH;
  if (node.marker === "quantity") {
    if (typeof v === "string") {
      try {
        return canonicalQuantity(v.trim());
      } catch {
        throw MISMATCH;
      }
    }
    // A number Go takes, whose canonical form the quantity parser does not give, stays as it was.
    if (typeof v === "number") {
      try {
        return canonicalQuantity(String(v));
      } catch {
        return v;
      }
    }
  }
  if (node.format === "byte" && typeof v === "string" && base64ErrorAt(v) >= 0) throw MISMATCH;
  return v;
}

/** One value of type `node` (which is known): its decoded copy. */
function decodedValue(v: unknown, node: TypeNode, at: At | undefined, found: Found): unknown {
  if (v === null || v === undefined) return v;
  switch (node.kind) {
    case "scalar":
      return scalarValue(v, node);
    case "untyped":
      return copyDecoded(v);
    case "list":
      return listOf(v, node, at, found);
    default:
      return structOf(v, node, at, found);
  }
}

/**
 * What Go decodes a null map value of a scalar type to: its zero value (a ConfigMap's `"b": null`
 * is stored as `""`, a quota's `"pods": null` as `"0"`); undefined for times, which stay null.
 */
function zeroScalar(node: TypeNode): unknown {
  if (node.marker === "quantity") return "0";
  if (node.marker === "int-or-string" || node.scalar === "int-or-string") return 0;
  if (node.marker !== undefined && node.marker !== "bytes") return undefined;
  switch (node.scalar) {
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "string":
      return node.format === "date-time" ? undefined : "";
    default:
      return undefined;
  }
}

function listOf(v: unknown, node: TypeNode, at: At | undefined, found: Found): unknown[] {
  if (!Array.isArray(v)) throw MISMATCH;
  const item = itemOf(node);
  const out = new Array<unknown>(v.length);
  for (let i = 0; i < v.length; i++)
    out[i] = item ? decodedValue(v[i], item, { key: i, up: at }, found) : copyDecoded(v[i]);
  return out;
}

function structOf(v: unknown, node: TypeNode, at: At | undefined, found: Found): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw MISMATCH;
  const obj = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj)) {
    const child = fieldOf(node, k);
    if (!child) {
      found.unknown.push(pathOf(at, k));
      continue;
    }
    const value = obj[k];
    if (value === null && node.name !== undefined && omittedWhenEmpty(node.name).null.has(k)) continue;
    if (value === null && node.kind === "map" && child.kind === "scalar") {
      const zero = zeroScalar(child);
      if (zero !== undefined) {
        setMember(out, k, zero);
        continue;
      }
    }
    // Scalars need no place of their own (most fields are scalars): one is made for objects and lists.
    const decoded =
      child.kind === "scalar" || value === null || typeof value !== "object"
        ? decodedValue(value, child, undefined, found)
        : decodedValue(value, child, { key: k, up: at }, found);
    if (child.kind === "scalar") {
      if (isZero(decoded) && node.name !== undefined) {
        const omitted = omittedWhenEmpty(node.name);
        if (omitted.zero.has(k)) continue;
        // A base64 "" is an empty []byte, which Go's validation sees as set until it is encoded.
        if (decoded === "" && omitted.empty.has(k))
          found.emptied.push({ path: keysOf(at, k), container: out });
        else if (writtenWhenAbsent(node.name).names.has(k))
          found.zeroed.push({ path: keysOf(at, k), container: out });
      }
    } else if ((child.kind === "list" || child.kind === "map") && omittedIfEmpty(decoded, node, k))
      found.emptied.push({ path: keysOf(at, k), container: out });
    setMember(out, k, decoded);
  }
  return out;
}

const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/**
 * Whether Go's encoding leaves the field out: an empty slice or map in an `omitempty` field. An
 * empty `metadata.managedFields` stays: on a write it asks for the managed fields to be reset.
 */
function omittedIfEmpty(decoded: unknown, node: TypeNode, k: string): boolean {
  if (!isEmptyCollection(decoded)) return false;
  if (node.name === undefined || (k === "managedFields" && node.name === OBJECT_META)) return false;
  return omittedWhenEmpty(node.name).empty.has(k);
}

/** A scalar's Go zero value, which Go's decode cannot tell from no value at all. */
function isZero(v: unknown): boolean {
  return v === "" || v === 0 || v === false;
}

/** An empty list, or an object (a map) without keys of its own. */
export function isEmptyCollection(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v !== "object" || v === null) return false;
  for (const k in v) if (Object.hasOwn(v, k)) return false;
  return true;
}

/**
 * The object decoded along `schema`, or `undefined` when some value does not fit its type (the
 * caller words that failure with typed-check.ts, which finds the same first mismatch).
 */
export function decodeTyped(obj: Record<string, unknown>, schema: TypeNode): TypedDecode | undefined {
  const found: Found = { unknown: [], emptied: [], zeroed: [] };
  try {
    return { object: structOf(obj, schema, undefined, found), ...found };
  } catch (e) {
    if (e instanceof Mismatch) return undefined;
    throw e;
  }
}
