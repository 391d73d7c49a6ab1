/**
 * The JSON Patch a mutating webhook answers with: the difference between the object the API server
 * sent and the object the handler returned. fast-json-patch's `compare` (the library the embedded
 * server already uses to apply patches) emits one operation per changed leaf — add, remove or
 * replace at the deepest path that differs — so unchanged fields never appear in the patch, and
 * removals inside an array come highest index first, as a sequential apply needs.
 */
import type { JsonPatchOperation } from "@kubesdk/client";
import jsonpatch from "fast-json-patch";

/** What the API server receives for `value`: JSON's view of it (undefined fields dropped, dates as text). */
export function asJson(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** The operations that turn `original` into `changed` (both as JSON); [] when they are equal. */
export function diffPatch(original: unknown, changed: unknown): JsonPatchOperation[] {
  const from = asJson(original) as object;
  const to = asJson(changed) as object;
  return jsonpatch.compare(from, to) as JsonPatchOperation[];
}
