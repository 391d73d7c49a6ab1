/** JSON patch (RFC 6902) through fast-json-patch, with failures turned into upstream-like errors. */
import jsonpatch from "fast-json-patch";
import { errors, failure } from "../api/status.js";

export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch))
    throw errors.badRequest("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
  try {
    const invalid = jsonpatch.validate(patch as jsonpatch.Operation[], target);
    if (invalid) throw invalid;
    return jsonpatch.applyPatch(target, patch as jsonpatch.Operation[], true, false).newDocument;
  } catch (e) {
    const err = e as { name?: string; message?: string };
    if (err.name === "TEST_OPERATION_FAILED")
      throw failure(
        422,
        "Invalid",
        "the server rejected our request due to an error in our request: test operation failed",
      );
    throw errors.badRequest(
      `the server rejected our request due to an error in our request: ${(err.message ?? String(err)).split("\n")[0]}`,
    );
  }
}
