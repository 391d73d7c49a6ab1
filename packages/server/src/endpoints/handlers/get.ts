/** GET of one object, optionally at a resourceVersion ("0" or N: not older than N). */
import { errors } from "../../api/status.js";
import type { ServedResource } from "../../resources/served.js";
import { type ApiResponse, type HandlerContext, objectKey, qualified } from "./context.js";
import { presentOne } from "./converted.js";
import { parseResourceVersion, waitForRevision } from "./resource-version.js";

export async function getObject(
  ctx: HandlerContext,
  r: ServedResource,
  namespace: string | undefined,
  name: string,
  q: URLSearchParams,
  signal?: AbortSignal,
): Promise<ApiResponse> {
  const rv = parseResourceVersion(q.get("resourceVersion"));
  if (rv !== undefined && rv > 0) await waitForRevision(ctx, rv, signal);
  const obj = ctx.store.get(r.bucket, objectKey(r, namespace, name));
  if (!obj) throw errors.notFound(qualified(r), name);
  return { code: 200, body: await presentOne(r, obj) };
}
