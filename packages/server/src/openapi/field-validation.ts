/**
 * Server-side field validation (`fieldValidation=Ignore|Warn|Strict`, Warn
 * when absent): unknown fields — found along the built-in schema metadata or
 * the CRD's structural schema — and duplicate fields are dropped (Ignore),
 * reported in `Warning` headers (Warn), or rejected (Strict) with upstream's
 * messages: `strict decoding error: unknown field "spec.foo"`.
 */
import { schemaFor } from "@kubesdk/models";
import { copyDecoded } from "../api/copy.js";
import { errors, failure } from "../api/status.js";
import { pruneCustomResource } from "../crd/prune.js";
import { MAX_WARNINGS } from "../http/limits.js";
import type { ServedResource } from "../resources/served.js";
import { canonicalQuantities, holdsQuantity } from "./quantities.js";
import type { TypedDecode } from "./typed-decode.js";
import { pruneByType } from "./typed-prune.js";
import { typedStrictErrors } from "./typed-strict-scan.js";

export type FieldValidationMode = "Ignore" | "Warn" | "Strict";
export type WriteKind = "create" | "update" | "patch";

const OPTIONS_KIND: Record<WriteKind, string> = {
  create: "CreateOptions",
  update: "UpdateOptions",
  patch: "PatchOptions",
};

export function fieldValidationMode(q: URLSearchParams, kind: WriteKind): FieldValidationMode {
  const v = q.get("fieldValidation") ?? "";
  if (v === "") return "Warn";
  if (v === "Ignore" || v === "Warn" || v === "Strict") return v;
  throw errors.invalid(OPTIONS_KIND[kind], "meta.k8s.io", "", [
    {
      type: "FieldValueNotSupported",
      field: "fieldValidation",
      value: v,
      detail: 'supported values: "", "Ignore", "Strict", "Warn"',
    },
  ]);
}

export interface FieldValidationResult {
  /** The object without unknown fields (built-ins; custom resources are pruned by their schema later). */
  readonly object: Record<string, unknown>;
  /** Texts for `Warning` headers (Warn mode only). */
  readonly warnings: string[];
}

/** Unknown-field paths of an object of `r`, and the object without them. */
function unknownFields(
  r: ServedResource,
  obj: Record<string, unknown>,
): { object: Record<string, unknown>; unknown: string[] } {
  if (r.custom) {
    const schema = r.custom.schema;
    if (!schema) return { object: obj, unknown: [] };
    return { object: obj, unknown: pruneCustomResource(obj, schema).unknown };
  }
  const node = schemaFor({ group: r.group, version: r.version, kind: r.kind });
  if (!node) return { object: obj, unknown: [] };
  const pruned = pruneByType(obj, node);
  return { object: pruned.value, unknown: pruned.unknown };
}

/** What the request body repeats: the repeated keys' paths, and the body's text when there are any. */
export interface RepeatedKeys {
  readonly duplicateFields?: readonly string[] | undefined;
  readonly repeatedKeysText?: string | undefined;
}

/**
 * The strict decoding errors. A built-in object's body is decoded strictly as a whole, which
 * reports unknown and duplicate fields in document order; a custom resource's duplicates come
 * from decoding and its unknown fields from pruning afterwards, as do a patch's (duplicates in
 * the patch, unknown fields in the patched object), so those list duplicates first.
 */
function strictProblems(
  r: ServedResource,
  kind: WriteKind,
  unknown: readonly string[],
  body: RepeatedKeys,
): string[] {
  const node =
    r.custom || kind === "patch"
      ? undefined
      : schemaFor({ group: r.group, version: r.version, kind: r.kind });
  if (node && body.repeatedKeysText !== undefined) return typedStrictErrors(body.repeatedKeysText, node);
  return [
    ...(body.duplicateFields ?? []).map((p) => `duplicate field "${p}"`),
    ...unknown.map((p) => `unknown field "${p}"`),
  ];
}

/**
 * `typed` is a built-in object's decode (typed-decode.ts), whose copy and unknown fields are used
 * as they are; without it the object's unknown fields are found here.
 */
export function enforceFieldValidation(
  r: ServedResource,
  obj: Record<string, unknown>,
  q: URLSearchParams,
  kind: WriteKind,
  body: RepeatedKeys = {},
  typed?: TypedDecode,
): FieldValidationResult {
  const mode = fieldValidationMode(q, kind);
  const { object, unknown } = typed ?? unknownFields(r, obj);
  const problems = strictProblems(r, kind, unknown, body);
  if (problems.length === 0 || mode === "Ignore") return { object, warnings: [] };
  if (mode === "Warn") return { object, warnings: problems };
  const strict = `strict decoding error: ${problems.join(", ")}`;
  if (kind !== "patch")
    throw errors.badRequest(
      `${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: ${strict}`,
    );
  // A patch result that does not decode strictly: upstream reports the patched object under "patch".
  const value = JSON.stringify(JSON.stringify(typed ? withCanonicalQuantities(r, obj) : obj));
  const message = `Invalid value: ${value}: ${strict}`;
  throw failure(422, "Invalid", ` "" is invalid: patch: ${message}`, {
    causes: [{ reason: "FieldValueInvalid", message, field: "patch" }],
  });
}

/**
 * The patched object as the type check left it, quantities in canonical form: the decode walk
 * leaves its input alone, but the text of this error showed the object after the quantities walk.
 */
function withCanonicalQuantities(r: ServedResource, obj: Record<string, unknown>): unknown {
  const node = schemaFor({ group: r.group, version: r.version, kind: r.kind });
  return node && holdsQuantity(node) ? canonicalQuantities(copyDecoded(obj), node) : obj;
}

/**
 * One `Warning` header value (RFC 7234 warn-code 299, as the apiserver sends them) for at most
 * MAX_WARNINGS distinct warnings. Non-ASCII text goes out as its UTF-8 bytes, as Go writes it
 * (Node writes header strings as latin1 and refuses characters beyond it).
 */
export function warningHeaders(warnings: readonly string[]): Record<string, string> {
  if (warnings.length === 0) return {};
  const distinct = [...new Set(warnings)].slice(0, MAX_WARNINGS);
  const value = distinct.map((w) => `299 - ${JSON.stringify(w).replaceAll("\x7f", "\\u007f")}`).join(", ");
  return { Warning: Buffer.from(value, "utf8").toString("latin1") };
}

/**
 * Server-side apply converts the apply configuration to its schema's type before merging. Upstream
 * refuses a configuration with a field the schema does not declare whatever fieldValidation says
 * (a 500 without reason naming the first such field), and its repeated YAML keys as fieldValidation
 * says: Strict refuses them (400), Warn returns them as warnings, Ignore drops them.
 */
export function checkApplyConfiguration(
  r: ServedResource,
  body: Record<string, unknown>,
  q: URLSearchParams,
  duplicates: readonly string[],
): string[] {
  const mode = fieldValidationMode(q, "patch");
  if (duplicates.length > 0 && mode === "Strict")
    throw errors.badRequest(
      `error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:\n  ${duplicates.join("\n  ")}`,
    );
  const [first] = unknownFields(r, body).unknown;
  if (first !== undefined) {
    const meta = (isRecord(body.metadata) ? body.metadata : {}) as { namespace?: unknown; name?: unknown };
    const gvk = `${r.group}/${r.version}, Kind=${r.kind}`;
    const message = `failed to create typed patch object (${String(meta.namespace ?? "")}/${String(meta.name ?? "")}; ${gvk}): .${first}: field not declared in schema`;
    throw errors.unclassified(message);
  }
  return mode === "Warn" ? [...duplicates] : [];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
