/**
 * The limits that keep one bad request from hurting every client of the
 * server, with upstream's values where kube-apiserver has one:
 * - request bodies: 3 MiB (413, checked before anything is parsed);
 * - nesting depth of decoded JSON/YAML bodies and patches: 500 levels (400).
 *   Upstream's decoders stop at 10000; this server's handlers and its YAML
 *   encoder recurse (about 900 levels overflow the stack), so it stops earlier;
 * - JSON patches: at most 10000 operations (413), and `copy` operations may add
 *   at most the body limit in total (422), so a short patch cannot grow memory;
 * - stored objects: 1.5 MiB of JSON (etcd's default request limit, 413);
 * - ConfigMap and Secret data: 1 MiB (422, as upstream validates them);
 * (the body, object and data limits are server settings, for tests that need bigger objects)
 * - response warnings: at most 100 distinct Warning headers.
 */
import { errors, failure, type StatusError } from "../api/status.js";

export const MAX_BODY_BYTES = 3 * 1024 * 1024;
export const MAX_DEPTH = 500;
export const MAX_JSON_PATCH_OPERATIONS = 10_000;
export const MAX_OBJECT_BYTES = 1.5 * 1024 * 1024;
export const MAX_DATA_BYTES = 1024 * 1024;
export const MAX_WARNINGS = 100;
/** Bodies from this size on (YAML: an eighth of it) are decoded on a worker thread (decode-pool.ts). */
export const OFF_THREAD_DECODE_BYTES = 256 * 1024;

/** Whether `value` nests deeper than `max` objects/arrays (iterative: safe on any input). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const isNode = (v: unknown): v is object => typeof v === "object" && v !== null;
  if (!isNode(value)) return false;
  // Only objects and arrays go on the stack (scalars are most of a big body), depths alongside.
  const stack: object[] = [value];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const depth = depths.pop() as number;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (isNode(child)) {
        stack.push(child);
        depths.push(depth + 1);
      }
  }
  return false;
}

/** 400 for a decoded body or patch nested deeper than MAX_DEPTH. */
export function checkDepth(value: unknown, what: "json" | "yaml"): void {
  if (nestsDeeperThan(value, MAX_DEPTH))
    throw errors.badRequest(
      `couldn't decode the request body: ${what} parse error: exceeded max depth of ${MAX_DEPTH}`,
    );
}

/**
 * The 413 of an object too large to store; the store measures it as it commits
 * (storage/object-text.ts), since the same JSON text answers the request.
 */
export function objectTooLarge(): StatusError {
  return failure(413, "RequestEntityTooLarge", "Request entity too large: etcdserver: request is too large");
}
