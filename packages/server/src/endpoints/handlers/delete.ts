/**
 * DELETE and DELETECOLLECTION: preconditions, finalizers (deletionTimestamp instead of removal),
 * grace periods, namespace termination, dry-run. The stages are listed at `deleteRequested` and
 * `deleteObject`; DeleteOptions are decoded in delete-options.ts.
 */
import type { AdmissionAttributes } from "../../admission/attributes.js";
import { nowTimestamp } from "../../api/names.js";
import { errors, StatusError } from "../../api/status.js";
import type { UserInfo } from "../../http/auth.js";
import { warningHeaders } from "../../openapi/field-validation.js";
import type { ServedResource } from "../../resources/served.js";
import { admissionAttributes, mutatingAdmission, validatingAdmission } from "./admission-stage.js";
import * as c from "./context.js";
import { convertsByWebhook, loadPresented, presentOne } from "./converted.js";
import { checkPreconditions, type DeleteOptions } from "./delete-options.js";
import { gracePeriodOf, policyFinalizers } from "./delete-policy.js";
import { buildFilter } from "./filter.js";
import { listObjects } from "./list.js";

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

/** Which object a client deletes, and who. */
export interface DeleteTarget {
  readonly namespace: string | undefined;
  readonly name: string;
  readonly user?: UserInfo | undefined;
  /** Set for an item of a DELETECOLLECTION. */
  readonly collection?: boolean;
}

/**
 * DELETE of one object as a client asks for it, in stages (upstream: endpoints/handlers/delete.go,
 * then the generic registry's Delete):
 *
 * 1. decode: DeleteOptions, by the endpoint (delete-options.ts `parseDeleteOptions`);
 * 2. load: the stored object, in the requested version;
 * 3. mutating admission, then 4. validating admission (operation DELETE, the stored object as
 *    oldObject; an item of a DELETECOLLECTION is admitted under the collection's request);
 * 5. strategy, 6. storage: `deleteObject` (preconditions, finalizers and grace period decide between
 *    marking and removing; the write);
 * 7. present: the answer in the requested version, with admission's warnings.
 *
 * In-process controllers call `deleteObject` directly: they are not admitted.
 */
export async function deleteRequested(
  ctx: c.HandlerContext,
  r: ServedResource,
  target: DeleteTarget,
  opts: DeleteOptions,
): Promise<c.ApiResponse> {
  const loaded = loadPresented(ctx, r, target.namespace, target.name);
  const old = loaded instanceof Promise ? await loaded : loaded;
  const warnings: string[] = [];
  const admitted = mutatingAdmission(ctx, admissionOfDelete(r, target, old, opts, warnings));
  if (admitted) await admitted;
  const validated = validatingAdmission(ctx, admissionOfDelete(r, target, old, opts, warnings));
  if (validated) await validated;
  const res = deleteObject(ctx, r, target.namespace, target.name, opts);
  return presentDeletion(r, res, warnings);
}

/** Stages 3–4's attributes (fresh for each phase): a DELETE of the stored object. */
function admissionOfDelete(
  r: ServedResource,
  target: DeleteTarget,
  old: c.KubeObject,
  opts: DeleteOptions,
  warnings: string[],
): AdmissionAttributes {
  return admissionAttributes(r, {
    operation: "DELETE",
    namespace: target.namespace,
    // An item of a collection delete is admitted under the collection's request, which names no object.
    name: target.collection ? "" : target.name,
    user: target.user,
    oldObject: old,
    dryRun: opts.dryRun,
    warnings,
  });
}

/** Stage 7: a conversion webhook's custom resource is deleted in its stored form and answered in this version. */
async function presentDeletion(
  r: ServedResource,
  res: c.ApiResponse,
  warnings: readonly string[],
): Promise<c.ApiResponse> {
  const body = res.body as c.KubeObject;
  const presented =
    convertsByWebhook(r) && body.kind === r.kind ? { ...res, body: await presentOne(r, body) } : res;
  if (warnings.length === 0) return presented;
  return { ...presented, headers: { ...presented.headers, ...warningHeaders(warnings) } };
}

/**
 * The deletion itself (stages 5 and 6 of `deleteRequested`): read the stored object (404), check the
 * preconditions (409), plan by the kind's rules (finalizers, grace period, namespace termination),
 * then write the plan (nothing for a dry run).
 */
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
  checkPreconditions(r, name, c.metadataOf(obj), opts.preconditions);
  const d: Deletion = { ctx, r, key, opts };
  const plan = isNamespaces(r) ? planNamespaceDeletion(ctx, obj) : planDeletion(d, obj);
  return commitDeletion(d, obj, plan);
}

/** One DELETE of one stored object: where it is and how it is to go. */
interface Deletion {
  readonly ctx: c.HandlerContext;
  readonly r: ServedResource;
  readonly key: string;
  readonly opts: DeleteOptions;
}

/**
 * What a DELETE does to the object: nothing more (already deleting as asked), remove it, or mark it
 * (deletionTimestamp, finalizers) and remove it at once if nothing holds it and no grace is left.
 */
type DeletionPlan =
  | { readonly action: "keep" }
  | { readonly action: "remove" }
  | { readonly action: "mark"; readonly marked: c.KubeObject; readonly removeWhenFree: boolean };

const isPods = (r: ServedResource): boolean => r.group === "" && r.resource === "pods";
const isNamespaces = (r: ServedResource): boolean => r.group === "" && r.resource === "namespaces";

/** Stage 5 for every kind but namespaces: finalizers of the propagation policy and grace periods. */
function planDeletion({ ctx, r, opts }: Deletion, obj: c.KubeObject): DeletionPlan {
  const meta = obj.metadata;
  const grace = gracePeriodOf(r, obj, opts);
  const had = (meta.finalizers as string[] | undefined) ?? [];
  const added = policyFinalizers(r, opts).filter((f) => !had.includes(f));
  const finalizers = [...had, ...added];
  const deleting = meta.deletionTimestamp !== undefined;
  const shortens = deleting && grace < Number(meta.deletionGracePeriodSeconds ?? 0);
  // Already deleting: a later DELETE may only shorten the grace period or add a policy's finalizer.
  if (deleting && !shortens && added.length === 0) return { action: "keep" };
  // Nothing holds the object and no grace period applies: it goes at once (pods first show the mark).
  if (!deleting && finalizers.length === 0 && grace === 0 && !isPods(r)) return { action: "remove" };
  const marked = markDeleted(ctx, obj, finalizers, deleting && !shortens ? undefined : grace);
  return { action: "mark", marked, removeWhenFree: finalizers.length === 0 };
}

/**
 * Stage 5 for namespaces: a namespace waits for its spec finalizers (the namespace controller
 * removes "kubernetes" through `finalize` once the contents are gone) and metadata finalizers.
 */
function planNamespaceDeletion(ctx: c.HandlerContext, obj: c.KubeObject): DeletionPlan {
  const meta = obj.metadata;
  const finalizers = (meta.finalizers as string[] | undefined) ?? [];
  const specFinalizers = ((obj.spec as { finalizers?: string[] })?.finalizers ?? []) as string[];
  if (finalizers.length === 0 && specFinalizers.length === 0) return { action: "remove" };
  if (meta.deletionTimestamp !== undefined) return { action: "keep" };
  const marked: c.KubeObject = {
    ...obj,
    metadata: { ...meta, deletionTimestamp: nowTimestamp(ctx.now()), deletionGracePeriodSeconds: 0 },
    status: { ...(obj.status as object), phase: "Terminating" },
  };
  return { action: "mark", marked, removeWhenFree: false };
}

/** Stage 6: the plan written to the store (a dry run answers what it would have written). */
function commitDeletion(d: Deletion, obj: c.KubeObject, plan: DeletionPlan): c.ApiResponse {
  const { ctx, r, key, opts } = d;
  if (plan.action === "keep") return { code: 200, body: obj };
  if (plan.action === "remove") return remove(d, obj);
  if (opts.dryRun) return { code: 200, body: plan.marked };
  const saved = c.present(r, ctx.store.update(r.bucket, key, c.toStored(r, plan.marked)));
  if (plan.removeWhenFree && Number(saved.metadata.deletionGracePeriodSeconds ?? 0) === 0)
    return remove(d, saved);
  return { code: 200, body: saved };
}

function remove({ ctx, r, key, opts }: Deletion, obj: c.KubeObject): c.ApiResponse {
  if (opts.dryRun) return { code: 200, body: r.returnDeletedObject ? obj : successStatus(r, obj) };
  const deleted = c.present(r, ctx.store.delete(r.bucket, key));
  return { code: 200, body: r.returnDeletedObject ? deleted : successStatus(r, deleted) };
}

/** The object marked for deletion: deletionTimestamp (now + grace), finalizers, a new generation. */
function markDeleted(
  ctx: c.HandlerContext,
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
      // Any object with a generation gets one more when its deletion starts, whether its kind
      // tracks spec changes or not (a PriorityClass: generation 1 from its create).
      ...(Number(meta.generation ?? 0) > 0 && meta.deletionTimestamp === undefined
        ? { generation: Number(meta.generation) + 1 }
        : {}),
    },
  };
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
