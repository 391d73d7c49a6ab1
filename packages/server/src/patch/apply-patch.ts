/** Applies a PATCH body of a given patch type to an object (the verb handlers' one entry to patching). */
import type { TypeNode } from "@kubesdk/models";
import { errors } from "../api/status.js";
import type { BodyType } from "../http/negotiate.js";
import { applyJsonPatch } from "./json-patch.js";
import { applyMergePatch } from "./merge-patch.js";
import { applyStrategicMergePatch } from "./strategic-merge.js";

const JSON_PATCH = "application/json-patch+json";
const MERGE_PATCH = "application/merge-patch+json";
const STRATEGIC_PATCH = "application/strategic-merge-patch+json";
const APPLY_PATCH = "application/apply-patch+yaml";

export interface PatchTarget {
  readonly patchType: BodyType;
  readonly patch: unknown;
  /** Whether the resource takes strategic merge patches (built-in kinds), and the schema they follow. */
  readonly strategic: boolean;
  readonly schema: TypeNode | undefined;
  /** Whether an apply patch is applied as a merge patch (the scale subresource). */
  readonly applyAsMerge?: boolean;
}

/** The patched object; 415 for a patch type the target does not take, 400 when the result is no object. */
export function applyPatchOfType(target: unknown, p: PatchTarget): Record<string, unknown> {
  let patched: unknown;
  if (p.patchType === "json-patch") patched = applyJsonPatch(target, p.patch);
  else if (p.patchType === "merge-patch" || (p.patchType === "apply" && p.applyAsMerge))
    patched = applyMergePatch(target, p.patch);
  else if (p.patchType === "strategic-merge-patch" && p.strategic)
    patched = applyStrategicMergePatch(target, p.patch, p.schema);
  else
    throw errors.unsupportedMediaType(
      p.strategic
        ? [JSON_PATCH, MERGE_PATCH, STRATEGIC_PATCH, APPLY_PATCH]
        : [JSON_PATCH, MERGE_PATCH, APPLY_PATCH],
    );
  if (typeof patched !== "object" || patched === null || Array.isArray(patched))
    throw errors.badRequest("the patch produced something that is not an object");
  return patched as Record<string, unknown>;
}
