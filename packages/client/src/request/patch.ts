/**
 * The four patch formats the API accepts, as a discriminated union typed by the patched object:
 *
 *   { type: "json", operations: [{ op: "replace", path: "/spec/replicas", value: 3 }] }   RFC 6902
 *   { type: "merge", patch: { metadata: { labels: { tier: null } } } }                   RFC 7386
 *   { type: "strategic", patch: { spec: { template: { spec: { containers: [...] } } } } } built-ins only
 *   { type: "apply", object: { apiVersion, kind, metadata: { name }, spec: {...} } }      server-side apply
 */
import type { ApplyConfiguration, ObjectWithTypeMeta } from "@kubesdk/apply";
import {
  APPLY_PATCH_MEDIA_TYPE,
  JSON_PATCH_MEDIA_TYPE,
  MERGE_PATCH_MEDIA_TYPE,
  STRATEGIC_MERGE_PATCH_MEDIA_TYPE,
} from "@kubesdk/models";

/** One RFC 6902 operation; `path`/`from` are JSON Pointers. */
export type JsonPatchOperation =
  | { readonly op: "add" | "replace" | "test"; readonly path: string; readonly value: unknown }
  | { readonly op: "remove"; readonly path: string }
  | { readonly op: "move" | "copy"; readonly from: string; readonly path: string };

/** An RFC 7386 merge patch of T: any subset of fields, `null` deletes a field, lists are replaced whole. */
export type MergePatch<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: MergePatch<T[K]> | null }
    : T;

/** `$patch`, `$retainKeys`, `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>`. */
export type StrategicDirectives = { readonly [directive: `$${string}`]: unknown };

/** A strategic merge patch of T: a merge patch whose lists of keyed items merge per item, plus directives. */
export type StrategicMergePatch<T> = T extends readonly (infer U)[]
  ? readonly StrategicMergePatch<U>[]
  : T extends object
    ? { [K in keyof T]?: StrategicMergePatch<T[K]> | null } & StrategicDirectives
    : T;

/**
 * The body of an apply patch: @kubesdk/apply's configuration of T (any subset of fields, with
 * apiVersion, kind and metadata.name), or of any object when T is not an object type.
 */
export type ApplyPatchObject<T> = [T] extends [ObjectWithTypeMeta]
  ? ApplyConfiguration<T>
  : ApplyConfiguration<ObjectWithTypeMeta> & { readonly [field: string]: unknown };

export type Patch<T = unknown> =
  | { readonly type: "json"; readonly operations: readonly JsonPatchOperation[] }
  | { readonly type: "merge"; readonly patch: MergePatch<T> }
  | { readonly type: "strategic"; readonly patch: StrategicMergePatch<T> }
  | { readonly type: "apply"; readonly object: ApplyPatchObject<T> };

export type PatchType = Patch["type"];

/** Content-Type of each patch format. */
export const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = {
  json: JSON_PATCH_MEDIA_TYPE,
  merge: MERGE_PATCH_MEDIA_TYPE,
  strategic: STRATEGIC_MERGE_PATCH_MEDIA_TYPE,
  apply: APPLY_PATCH_MEDIA_TYPE,
};

/** The body of a patch. Apply is sent as JSON, which is valid YAML and avoids a YAML writer. */
export function patchBody(patch: Patch<unknown>): unknown {
  switch (patch.type) {
    case "json":
      return patch.operations;
    case "merge":
    case "strategic":
      return patch.patch;
    case "apply":
      return patch.object;
  }
}
