/**
 * JSON patch (RFC 6902) through fast-json-patch, one operation at a time so
 * the patch's size limits hold: at most 10000 operations, and `copy`
 * operations may add at most the body limit in total (a few copies of a copy
 * would otherwise double the object each time). An operation that does not
 * apply is a 422 Invalid, as upstream answers, with fast-json-patch's reason.
 */
import type jsonpatch from "fast-json-patch";
import { errors, failure, StatusError } from "../api/status.js";
import { MAX_BODY_BYTES, MAX_JSON_PATCH_OPERATIONS } from "../http/limits.js";
import { applyJsonPatchOperations } from "./json-patch-document.js";

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

/** `target` patched; the copy limit and failures as the module comment says. */
export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  const ops = checkOperations(patch);
  let copied = 0;
  const limitCopies = (bytes: number) => {
    copied += bytes;
    if (copied > MAX_BODY_BYTES) throw failure(422, "Invalid", REJECTED);
  };
  try {
    return applyJsonPatchOperations(target, ops, limitCopies);
  } catch (e) {
    if (e instanceof StatusError) throw e;
    const err = e as { name?: string; message?: string };
    const reason =
      err.name === "TEST_OPERATION_FAILED" ? "test operation failed" : (err.message ?? String(err));
    throw failure(422, "Invalid", `${REJECTED}: ${reason.split("\n")[0]}`);
  }
}
