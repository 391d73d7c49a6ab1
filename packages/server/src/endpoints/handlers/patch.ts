/**
 * PATCH: apply patches go to server-side apply (apply/apply-handler.ts); the other patch types are
 * applied to the stored object and committed as an update (commit-update.ts).
 */
import { errors } from "../../api/status.js";
import { applyObject } from "../../apply/apply-handler.js";
import { applyPatchOfType } from "../../patch/apply-patch.js";
import type { ServedResource } from "../../resources/served.js";
import { commitUpdate, updateWithRetries } from "./commit-update.js";
import type * as c from "./context.js";
import { loadPresented } from "./converted.js";
import type { PatchRequest } from "./write.js";
import { builtinSchema } from "./write-checks.js";

export async function patchObject(
  ctx: c.HandlerContext,
  r: ServedResource,
  req: PatchRequest,
): Promise<c.ApiResponse> {
  if (req.patchType === "apply") return applyObject(ctx, r, { ...req, patch: req.patch });
  if (req.query.has("force"))
    throw errors.invalid("PatchOptions", "meta.k8s.io", "", [
      { type: "FieldValueForbidden", field: "force", detail: "may not be specified for non-apply patch" },
    ]);
  return updateWithRetries(req.large, async (large) => {
    const loaded = loadPresented(ctx, r, req.namespace, req.name);
    const old = loaded instanceof Promise ? await loaded : loaded;
    const patched = applyPatchOfType(old, {
      patchType: req.patchType,
      patch: req.patch,
      strategic: !r.custom,
      schema: r.custom ? undefined : builtinSchema(r),
    });
    return commitUpdate(ctx, r, { ...req, large }, old, patched, "patch");
  });
}
