/**
 * JSON patch (RFC 6902) through fast-json-patch, one operation at a time so
 * the patch's size limits hold: at most 10000 operations, and `copy`
 * operations may add at most the body limit in total (a few copies of a copy
 * would otherwise double the object each time). Failures become
 * upstream-like errors.
 */
import jsonpatch from "fast-json-patch";
import { errors, failure, StatusError } from "../api/status.js";
import { MAX_BODY_BYTES, MAX_JSON_PATCH_OPERATIONS } from "../http/limits.js";

const REJECTED = "the server rejected our request due to an error in our request";

function checkOperations(patch: unknown): jsonpatch.Operation[] {
  if (!Array.isArray(patch))
    throw errors.badRequest("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
  if (patch.length > MAX_JSON_PATCH_OPERATIONS)
    throw failure(
      413,
      "RequestEntityTooLarge",
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`,
    );
  for (const op of patch)
    if (typeof op !== "object" || op === null || Array.isArray(op))
      throw errors.badRequest(`${REJECTED}: every operation must be an object`);
  return patch as jsonpatch.Operation[];
}

/** Bytes a copy operation adds: the JSON size of what it copies. */
function copySize(doc: unknown, op: jsonpatch.Operation): number {
  if (op.op !== "copy") return 0;
  try {
    return JSON.stringify(jsonpatch.getValueByPointer(doc, op.from))?.length ?? 0;
  } catch {
    return 0;
  }
}

export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  const ops = checkOperations(patch);
  let doc = structuredClone(target);
  let copied = 0;
  try {
    for (const op of ops) {
      copied += copySize(doc, op);
      if (copied > MAX_BODY_BYTES) throw failure(422, "Invalid", REJECTED);
      doc = jsonpatch.applyOperation(doc, op, true, true).newDocument;
    }
    return doc;
  } catch (e) {
    if (e instanceof StatusError) throw e;
    const err = e as { name?: string; message?: string };
    if (err.name === "TEST_OPERATION_FAILED")
      throw failure(422, "Invalid", `${REJECTED}: test operation failed`);
    throw errors.badRequest(`${REJECTED}: ${(err.message ?? String(err)).split("\n")[0]}`);
  }
}
