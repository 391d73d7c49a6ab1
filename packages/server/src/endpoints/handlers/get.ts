/**
 * GET of one object. The stages, in order (upstream: endpoints/handlers/get.go, then the generic
 * registry's Get):
 *
 * 1. decode: the GetOptions' resourceVersion (unset: the latest; "0": any; N: not older than N);
 * 2. consistency: wait until the store has reached N (504 when it does not in time);
 * 3. storage: read the object (404 when missing);
 * 4. present: convert it to the requested version (a custom resource's conversion may await a
 *    webhook); the endpoint then encodes it (JSON, YAML, protobuf, Table, PartialObjectMetadata).
 */
import { errors } from "../../api/status.js";
import type { ServedResource } from "../../resources/served.js";
import type { StoredObject } from "../../storage/mvcc.js";
import { type ApiResponse, type HandlerContext, objectKey, qualified } from "./context.js";
import { presentOne } from "./converted.js";
import { parseResourceVersion, type SignalSource, waitForRevision } from "./resource-version.js";

export async function getObject(
  ctx: HandlerContext,
  r: ServedResource,
  namespace: string | undefined,
  name: string,
  q: URLSearchParams,
  signal?: SignalSource,
): Promise<ApiResponse> {
  const notOlderThan = decodeGetOptions(q);
  await readConsistentAt(ctx, notOlderThan, signal);
  const stored = readStored(ctx, r, namespace, name);
  return { code: 200, body: await presentOne(r, stored) };
}

/** Stage 1: the revision the answer may not be older than (undefined: the latest, 0: any). */
function decodeGetOptions(q: URLSearchParams): number | undefined {
  return parseResourceVersion(q.get("resourceVersion"));
}

/**
 * Stage 2: a read at a revision the store has not reached waits for it. Reads are otherwise always
 * at the latest revision, as upstream's etcd-backed reads are.
 */
async function readConsistentAt(
  ctx: HandlerContext,
  notOlderThan: number | undefined,
  signal: SignalSource | undefined,
): Promise<void> {
  if (notOlderThan !== undefined && notOlderThan > 0) await waitForRevision(ctx, notOlderThan, signal);
}

/** Stage 3: the stored object, or upstream's 404. */
function readStored(
  ctx: HandlerContext,
  r: ServedResource,
  namespace: string | undefined,
  name: string,
): StoredObject {
  const obj = ctx.store.get(r.bucket, objectKey(r, namespace, name));
  if (!obj) throw errors.notFound(qualified(r), name);
  return obj;
}
