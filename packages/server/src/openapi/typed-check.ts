/**
 * Type checks of a built-in object against the schema metadata of its kind,
 * as decoding into Go structs checks them: structs and maps are JSON objects,
 * lists are arrays, strings are strings, integers are whole numbers within
 * their int32/int64 range. A mismatch is a 400 before anything is stored,
 * worded as upstream: `ConfigMap in version "v1" cannot be handled as a
 * ConfigMap: json: cannot unmarshal number into Go struct field
 * ConfigMap.data of type string` (a patch whose result is ill-typed is a 422). `null` is accepted anywhere (Go leaves the
 * zero value); fields the schema does not know are field validation's job.
 */
import { fieldOf, itemOf, type TypeNode } from "@kubesdk/models";
import { errors, type StatusError } from "../api/status.js";
import type { ServedResource } from "../resources/served.js";
import { quantityError } from "./quantities.js";

/**
 * The Go struct field a value belongs to: the struct's type name and the field's JSON path, kept
 * as a chain of keys and joined only for a failure (joining at every field made a CRD with 20,000
 * properties slow to check).
 */
interface Site {
  /** The struct holding the field (its short type name is taken only for a failure); none at the root. */
  readonly owner: TypeNode | undefined;
  /** The field's JSON name; at the root, the kind. */
  readonly key: string;
  readonly up: Site | undefined;
}

const rootSite = (kind: string): Site => ({ owner: undefined, key: kind, up: undefined });

/** The Go struct named in a failure: the kind at the root, else the short name of the owning type. */
function structOf(site: Site): string {
  return site.owner ? shortName(site.owner.name) : site.key;
}

/** The fields of a v1.PersistentVolumeSpec that are not its embedded PersistentVolumeSource's. */
const PV_SPEC_OWN = new Set([
  "accessModes",
  "capacity",
  "claimRef",
  "persistentVolumeReclaimPolicy",
  "storageClassName",
  "mountOptions",
  "volumeMode",
  "nodeAffinity",
  "volumeAttributesClassName",
]);

/**
 * Structs whose fields partly come from an embedded struct: Go's decoder names the embedded struct
 * in the path of those fields (`Volume.spec.volumes.VolumeSource.secret`).
 */
const EMBEDDED: Record<string, readonly [string, (key: string) => boolean]> = {
  Volume: ["VolumeSource", (k) => k !== "name"],
  Probe: ["ProbeHandler", (k) => ["exec", "httpGet", "tcpSocket", "grpc"].includes(k)],
  EphemeralContainer: ["EphemeralContainerCommon", (k) => k !== "targetContainerName"],
  PersistentVolumeSpec: ["PersistentVolumeSource", (k) => !PV_SPEC_OWN.has(k)],
};

function pathOf(site: Site): string {
  const keys: string[] = [];
  for (let s = site; s.up !== undefined; s = s.up) {
    keys.push(s.key);
    const embedded = s.owner ? EMBEDDED[shortName(s.owner.name)] : undefined;
    if (embedded?.[1](s.key)) keys.push(embedded[0]);
  }
  return keys.reverse().join(".");
}

/** Integer ranges, inclusive below and exclusive above (2^63 is not exact in a double). */
const INT_RANGE: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31],
  int64: [-(2 ** 63), 2 ** 63],
};

const shortName = (name: string | undefined): string => name?.split(".").pop() ?? "";
/** Go's package-qualified type name: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta → v1.ObjectMeta. */
const goName = (name: string | undefined): string => name?.split(".").slice(-2).join(".") ?? "interface {}";

function goType(node: TypeNode): string {
  switch (node.kind) {
    case "struct":
      return goName(node.name);
    case "list": {
      const item = itemOf(node);
      return `[]${item ? goType(item) : "interface {}"}`;
    }
    case "map": {
      const value = fieldOf(node, "");
      return `map[string]${value ? goType(value) : "interface {}"}`;
    }
    case "scalar":
      if (node.scalar === "integer") return node.format === "int32" ? "int32" : "int64";
      if (node.scalar === "number") return "float64";
      if (node.scalar === "boolean") return "bool";
      return "string";
    default:
      return "interface {}";
  }
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (typeof v === "object") return "object";
  if (typeof v === "boolean") return "bool";
  return typeof v;
}

/** Why `v` does not fit the scalar `node`, as Go's decoder names the value (undefined: it fits). */
export function scalarMismatch(v: unknown, node: TypeNode): string | undefined {
  const scalar = node.scalar;
  if (scalar === "int-or-string" || node.marker === "int-or-string")
    return typeof v === "string" || (typeof v === "number" && Number.isInteger(v)) ? undefined : jsonType(v);
  if (node.marker === "quantity" || scalar === "number-or-string")
    return typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) ? undefined : jsonType(v);
  if (scalar === "integer") {
    if (typeof v !== "number") return jsonType(v);
    const [min, max] = INT_RANGE[node.format ?? "int64"] ?? (INT_RANGE.int64 as [number, number]);
    return Number.isInteger(v) && v >= min && v < max
      ? undefined
      : `number ${String(v).replace("Infinity", "1e400")}`;
  }
  if (scalar === "number") return typeof v === "number" && Number.isFinite(v) ? undefined : jsonType(v);
  if (scalar === "boolean") return typeof v === "boolean" ? undefined : jsonType(v);
  return typeof v === "string" ? undefined : jsonType(v);
}

const BASE64 = /^[A-Za-z0-9+/]$/;

/** Where Go's base64.StdEncoding stops decoding `s` (CorruptInputError's offset), or -1 when it decodes. */
export function base64ErrorAt(s: string): number {
  let quantum = 0;
  let start = 0;
  let padding = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "\r" || c === "\n") continue;
    if (quantum === 0) start = i;
    if (c === "=") {
      if (quantum < 2 || (quantum === 2 && padding === 0 && s[i + 1] !== "=")) return i;
      padding++;
    } else if (padding > 0 || !BASE64.test(c)) return i;
    quantum = (quantum + 1) % 4;
    if (quantum === 0 && padding > 0 && i + 1 < s.length) return i + 1;
  }
  return quantum === 0 ? -1 : start;
}

function failure(what: string, node: TypeNode, site: Site): string {
  return `json: cannot unmarshal ${what} into Go struct field ${structOf(site)}.${pathOf(site)} of type ${goType(node)}`;
}

/**
 * What is wrong with the scalar `v` of type `node`: a value Go cannot unmarshal into it (`what`,
 * worded with the field's site by the caller), or a message of its own.
 */
function scalarProblem(v: unknown, node: TypeNode): { readonly what: string } | string | undefined {
  const what = scalarMismatch(v, node);
  if (what !== undefined) return { what };
  if (node.marker === "quantity" && typeof v === "string") return quantityError(v);
  // []byte fields decode from base64 (Secret data, ConfigMap binaryData).
  const at = node.format === "byte" && typeof v === "string" ? base64ErrorAt(v) : -1;
  return at < 0 ? undefined : `illegal base64 data at input byte ${at}`;
}

/** The first type mismatch under `v`, as Go's decoder words it, if any. */
function mismatch(v: unknown, node: TypeNode | undefined, site: Site): string | undefined {
  if (v === null || v === undefined || !node || node.kind === "untyped") return undefined;
  if (node.kind === "scalar") {
    const problem = scalarProblem(v, node);
    return typeof problem === "object" ? failure(problem.what, node, site) : problem;
  }
  if (node.kind === "list") {
    if (!Array.isArray(v)) return failure(jsonType(v), node, site);
    const item = itemOf(node);
    for (const el of v) {
      const m = mismatch(el, item, site);
      if (m) return m;
    }
    return undefined;
  }
  if (typeof v !== "object" || Array.isArray(v)) return failure(jsonType(v), node, site);
  for (const k of Object.keys(v)) {
    const child = (v as Record<string, unknown>)[k];
    const childNode = fieldOf(node, k);
    if (child === null || child === undefined || !childNode) continue;
    // Most fields are scalars: their site is made only when they fail (an object per field before).
    const problem = childNode.kind === "scalar" ? scalarProblem(child, childNode) : undefined;
    if (childNode.kind === "scalar" && typeof problem !== "object") {
      if (problem) return problem;
      continue;
    }
    const childSite = node.kind === "struct" ? { owner: node, key: k, up: site } : site;
    const m =
      typeof problem === "object"
        ? failure(problem.what, childNode, childSite)
        : mismatch(child, childNode, childSite);
    if (m) return m;
  }
  return undefined;
}

/**
 * The error for an object that does not decode into the kind's Go types (`typeMismatch` found
 * `m`): a request body is a 400; the result of a patch is a 422 on the field `patch`, whose value
 * is the patched object (as upstream).
 */
export function typeError(r: ServedResource, m: string, obj: unknown, source: "body" | "patch"): StatusError {
  if (source === "body")
    return errors.badRequest(`${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: ${m}`);
  return errors.invalid("", "", "", [
    { type: "FieldValueInvalid", field: "patch", value: JSON.stringify(obj), detail: m },
  ]);
}

/** The first place `obj` does not decode into the kind's Go types, as Go's decoder words it. */
export function typeMismatch(kind: string, schema: TypeNode | undefined, obj: unknown): string | undefined {
  return schema ? mismatch(obj, schema, rootSite(kind)) : undefined;
}
