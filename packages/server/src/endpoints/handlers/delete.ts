/**
 * DELETE and DELETECOLLECTION: preconditions, finalizers (deletionTimestamp
 * instead of removal), namespace termination, dry-run; DeleteOptions from the
 * body win over query parameters.
 */

import { nowTimestamp } from "../../api/names.js";
import { queryOptionalBool } from "../../api/query-bool.js";
import { errors, failure, StatusError } from "../../api/status.js";
import type { UserInfo } from "../../http/auth.js";
import { warningHeaders } from "../../openapi/field-validation.js";
import type { ServedResource } from "../../resources/served.js";
import { admissionAttributes, mutatingAdmission, validatingAdmission } from "./admission-stage.js";
import * as c from "./context.js";
import { convertsByWebhook, loadPresented, presentOne } from "./converted.js";
import { gracePeriodOf, policyFinalizers } from "./delete-policy.js";
import { buildFilter } from "./filter.js";
import { listObjects } from "./list.js";
import { parseDryRun, parseInt64Param } from "./options.js";

export interface DeleteOptions {
  readonly dryRun: boolean;
  readonly preconditions?: { uid?: string; resourceVersion?: string };
  readonly propagationPolicy?: string;
  readonly gracePeriodSeconds?: number;
  readonly orphanDependents?: boolean;
}

const POLICIES = new Set(["Orphan", "Background", "Foreground"]);

export function parseDeleteOptions(
  q: URLSearchParams,
  body: Record<string, unknown> | undefined,
): DeleteOptions {
  const fromBody = body ?? {};
  const dryRunValues = Array.isArray(fromBody.dryRun) ? (fromBody.dryRun as string[]) : q.getAll("dryRun");
  const dq = new URLSearchParams(dryRunValues.map((v): [string, string] => ["dryRun", String(v)]));
  const dryRun = parseDryRun(dq, "DeleteOptions");
  const policy =
    (fromBody.propagationPolicy as string | undefined) ?? q.get("propagationPolicy") ?? undefined;
  if (policy !== undefined && !POLICIES.has(policy))
    throw errors.invalid("DeleteOptions", "meta.k8s.io", "", [
      {
        type: "FieldValueNotSupported",
        field: "propagationPolicy",
        value: policy,
        detail: 'supported values: "Foreground", "Background", "Orphan", "nil"',
      },
    ]);
  const rawGrace = q.get("gracePeriodSeconds");
  const grace =
    (fromBody.gracePeriodSeconds as number | undefined) ??
    (rawGrace !== null && rawGrace !== "" ? parseInt64Param(rawGrace) : undefined);
  const pre = fromBody.preconditions as DeleteOptions["preconditions"] | undefined;
  const orphan =
    fromBody.orphanDependents !== undefined
      ? fromBody.orphanDependents === true
      : queryOptionalBool(q, "orphanDependents");
  return {
    ...(orphan !== undefined ? { orphanDependents: orphan } : {}),
    dryRun,
    ...(pre ? { preconditions: pre } : {}),
    ...(policy ? { propagationPolicy: policy } : {}),
    ...(grace !== undefined && Number.isFinite(grace) ? { gracePeriodSeconds: grace } : {}),
  };
}

function successStatus(r: ServedResource, obj: c.KubeObject): Record<string, unknown> {
  const meta = c.metadataOf(obj);
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    details: { name: meta.name, ...(r.group ? { group: r.group } : {}), kind: r.resource, uid: meta.uid },
  };
}

/**
 * DELETE of one object as a client asks for it: the stored object, the admission chain's mutating
 * and validating phases (operation DELETE, the stored object as oldObject), then the deletion.
 * In-process controllers call deleteObject directly.
 */
export async function deleteRequested(
  ctx: c.HandlerContext,
  r: ServedResource,
  target: { namespace: string | undefined; name: string; user?: UserInfo | undefined; collection?: boolean },
  opts: DeleteOptions,
): Promise<c.ApiResponse> {
  const { namespace, name, user } = target;
  const loaded = loadPresented(ctx, r, namespace, name);
  const old = loaded instanceof Promise ? await loaded : loaded;
  const warnings: string[] = [];
  const admitting = {
    operation: "DELETE",
    namespace,
    // An item of a collection delete is admitted under the collection's request, which names no object.
    name: target.collection ? "" : name,
    user,
    oldObject: old,
    dryRun: opts.dryRun,
    warnings,
  } as const;
  const admitted = mutatingAdmission(ctx, admissionAttributes(r, admitting));
  if (admitted) await admitted;
  const validated = validatingAdmission(ctx, admissionAttributes(r, admitting));
  if (validated) await validated;
  const res = deleteObject(ctx, r, namespace, name, opts);
  const withWarnings = (out: c.ApiResponse): c.ApiResponse =>
    warnings.length === 0 ? out : { ...out, headers: { ...out.headers, ...warningHeaders(warnings) } };
  // A conversion webhook's custom resource is deleted in its stored form and answered in this version.
  const body = res.body as c.KubeObject;
  if (!convertsByWebhook(r) || body.kind !== r.kind) return withWarnings(res);
  return withWarnings({ ...res, body: await presentOne(r, body) });
}

export function deleteObject(
  ctx: c.HandlerContext,
  r: ServedResource,
  namespace: string | undefined,
  name: string,
  opts: DeleteOptions,
): c.ApiResponse {
  const key = c.objectKey(r, namespace, name);
  const stored = ctx.store.get(r.bucket, key);
  if (!stored) throw errors.notFound(c.qualified(r), name);
  const obj = c.present(r, stored);
  const meta = c.metadataOf(obj);
  checkPreconditions(r, name, meta, opts.preconditions);
  const d: Deletion = { ctx, r, key, opts };
  if (r.group === "" && r.resource === "namespaces") return deleteNamespace(d, obj);

  const grace = gracePeriodOf(r, obj, opts);
  const had = (meta.finalizers as string[] | undefined) ?? [];
  const added = policyFinalizers(r, opts).filter((f) => !had.includes(f));
  const finalizers = [...had, ...added];
  const deleting = meta.deletionTimestamp !== undefined;
  const shortens = deleting && grace < Number(meta.deletionGracePeriodSeconds ?? 0);
  // Already deleting: a later DELETE may only shorten the grace period or add a policy's finalizer.
  if (deleting && !shortens && added.length === 0) return { code: 200, body: obj };
  // Nothing holds the object and no grace period applies: it goes at once (pods first show the mark).
  if (!deleting && finalizers.length === 0 && grace === 0 && !isPods(r)) return remove(d, obj);
  const marked = markDeleted(ctx, r, obj, finalizers, deleting && !shortens ? undefined : grace);
  if (opts.dryRun) return { code: 200, body: marked };
  const saved = c.present(r, ctx.store.update(r.bucket, key, c.toStored(r, marked)));
  if (finalizers.length === 0 && Number(saved.metadata.deletionGracePeriodSeconds ?? 0) === 0)
    return remove(d, saved);
  return { code: 200, body: saved };
}

const isPods = (r: ServedResource): boolean => r.group === "" && r.resource === "pods";

/** One DELETE of one stored object: where it is and how it is to go. */
interface Deletion {
  readonly ctx: c.HandlerContext;
  readonly r: ServedResource;
  readonly key: string;
  readonly opts: DeleteOptions;
}

function remove({ ctx, r, key, opts }: Deletion, obj: c.KubeObject): c.ApiResponse {
  if (opts.dryRun) return { code: 200, body: r.returnDeletedObject ? obj : successStatus(r, obj) };
  const deleted = c.present(r, ctx.store.delete(r.bucket, key));
  return { code: 200, body: r.returnDeletedObject ? deleted : successStatus(r, deleted) };
}

/** The object marked for deletion: deletionTimestamp (now + grace), finalizers, a new generation. */
function markDeleted(
  ctx: c.HandlerContext,
  r: ServedResource,
  obj: c.KubeObject,
  finalizers: readonly string[],
  grace: number | undefined,
): c.KubeObject {
  const meta = obj.metadata;
  const timing =
    grace === undefined
      ? {}
      : { deletionTimestamp: nowTimestamp(ctx.now() + grace * 1000), deletionGracePeriodSeconds: grace };
  return {
    ...obj,
    metadata: {
      ...meta,
      ...timing,
      ...(finalizers.length > 0 ? { finalizers: [...finalizers] } : {}),
      ...(r.tracksGeneration && meta.deletionTimestamp === undefined
        ? { generation: Number(meta.generation ?? 0) + 1 }
        : {}),
    },
  };
}

/**
 * A namespace waits for its spec finalizers (the namespace controller removes
 * "kubernetes" through `finalize` once the contents are gone) and metadata finalizers.
 */
function deleteNamespace(d: Deletion, obj: c.KubeObject): c.ApiResponse {
  const { ctx, r, key, opts } = d;
  const meta = obj.metadata;
  const finalizers = (meta.finalizers as string[] | undefined) ?? [];
  const specFinalizers = ((obj.spec as { finalizers?: string[] })?.finalizers ?? []) as string[];
  if (finalizers.length === 0 && specFinalizers.length === 0) return remove(d, obj);
  if (meta.deletionTimestamp !== undefined) return { code: 200, body: obj };
  const marked: c.KubeObject = {
    ...obj,
    metadata: { ...meta, deletionTimestamp: nowTimestamp(ctx.now()), deletionGracePeriodSeconds: 0 },
    status: { ...(obj.status as object), phase: "Terminating" },
  };
  if (opts.dryRun) return { code: 200, body: marked };
  return { code: 200, body: c.present(r, ctx.store.update(r.bucket, key, marked)) };
}

export async function deleteCollection(
  ctx: c.HandlerContext,
  r: ServedResource,
  namespace: string | undefined,
  q: URLSearchParams,
  opts: DeleteOptions,
  user?: UserInfo,
): Promise<c.ApiResponse> {
  buildFilter(r, q);
  const listed = await listObjects(ctx, r, namespace, q);
  const items = (listed.body as { items: c.KubeObject[] }).items;
  const out: c.KubeObject[] = [];
  for (const item of items) {
    const meta = c.metadataOf(item);
    try {
      // Each item passes admission as a DELETE (the item as oldObject), as upstream's DeleteCollection does.
      const target = {
        namespace: meta.namespace as string | undefined,
        name: String(meta.name),
        user,
        collection: true,
      };
      const res = await deleteRequested(ctx, r, target, opts);
      out.push((res.body as c.KubeObject).kind === "Status" ? item : (res.body as c.KubeObject));
    } catch (e) {
      // Deleted concurrently: upstream ignores NotFound here.
      if (!(e instanceof StatusError) || e.statusCode !== 404) throw e;
    }
  }
  const body = listed.body as Record<string, unknown>;
  return {
    code: 200,
    body: { ...body, metadata: { resourceVersion: String(ctx.store.revision) }, items: out },
  };
}

/**
 * Delete preconditions. The generic registry words the Conflict with the Kind
 * (`ConfigMap "x"`, `Deployment.apps "x"`); namespaces check them in their own
 * storage and use the resource and the older wording.
 */
function checkPreconditions(
  r: ServedResource,
  name: string,
  meta: Record<string, unknown>,
  pre: DeleteOptions["preconditions"],
): void {
  if (!pre) return;
  const uidBad = pre.uid !== undefined && pre.uid !== meta.uid;
  const rvBad = pre.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion;
  if (!uidBad && !rvBad) return;
  if (r.group === "" && r.resource === "namespaces") {
    const why = uidBad
      ? `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${String(meta.uid)}`
      : `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${String(meta.resourceVersion)}`;
    throw errors.conflict(c.qualified(r), name, why);
  }
  const why = uidBad
    ? `the UID in the precondition (${pre.uid}) does not match the UID in record (${String(meta.uid)}). The object might have been deleted and then recreated`
    : `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${String(meta.resourceVersion)}). The object might have been modified`;
  const qualifiedKind = r.group ? `${r.kind}.${r.group}` : r.kind;
  throw failure(409, "Conflict", `Operation cannot be fulfilled on ${qualifiedKind} "${name}": ${why}`, {
    name,
    ...(r.group ? { group: r.group } : {}),
    kind: r.kind,
  });
}
