/**
 * The shared tail of PUT, PATCH and apply to an existing object: identity
 * checks, server-owned metadata carried over, subresource scoping,
 * defaulting, generation, no-op detection, then the commit (or the deletion a
 * removed last finalizer completes).
 */

import { cloneToExtend, copyDecoded } from "../../api/copy.js";
import { jsonEqual } from "../../api/json-equal.js";
import { errors } from "../../api/status.js";
import { pause, runAtOnce, runYielding, type Steps } from "../../api/steps.js";
import type { UserInfo } from "../../http/auth.js";
import { objectTooLarge } from "../../http/limits.js";
import { dropEmptied, withoutEmptied } from "../../openapi/drop-emptied.js";
import { enforceFieldValidation, warningHeaders } from "../../openapi/field-validation.js";
import { goEncodedAs } from "../../openapi/go-written.js";
import { hasStatus, type ServedResource } from "../../resources/served.js";
import { PreconditionError } from "../../storage/mvcc.js";
import { ObjectTooLargeError } from "../../storage/object-text.js";
import { sameValue } from "../../validation/field-errors.js";
import { normalizeDecodedMetadata } from "../../validation/metadata-decode.js";
import { admissionAttributes, mutatingAdmission, validatingAdmission } from "./admission-stage.js";
import * as c from "./context.js";
import { presentOne, storedForm } from "./converted.js";
import { recordManagedFields } from "./managed.js";
import { parseDryRun } from "./options.js";
import {
  checkIdentity,
  checkTypeMeta,
  checkUidUnchanged,
  decodeBuiltin,
  defaultAsDecoded,
  validateSteps,
  withTypeMeta,
} from "./write-checks.js";

export type UpdateRequest = {
  namespace: string | undefined;
  name: string;
  subresource?: string;
  query: URLSearchParams;
  userAgent?: string | undefined;
  managedFieldsDone?: boolean;
  duplicateFields?: readonly string[];
  repeatedKeysText?: string;
  /** A limit-sized request: pauses between its costly steps (api/steps.ts). */
  large?: boolean;
  /** Who writes, for admission. */
  user?: UserInfo | undefined;
};

/** An update found its object changed while it paused or waited: its caller runs it again. */
export class ChangedWhilePaused extends Error {}

/**
 * Runs an update, with pauses for a large request; should the object change while it paused or
 * waited (a conversion webhook, CEL rules on a worker thread), runs it again from a fresh read, at
 * once, as upstream's storage retries an update on a conflict: for as long as others keep
 * committing (each rerun means another write landed, so concurrent writers all get through).
 */
export async function updateWithRetries<T>(
  large: boolean | undefined,
  run: (large: boolean) => Promise<T>,
): Promise<T> {
  for (let first = true; ; first = false) {
    try {
      return await run(large === true && first);
    } catch (e) {
      if (!(e instanceof ChangedWhilePaused)) throw e;
    }
  }
}

/** Metadata an update cannot change: the stored values win. */
const KEPT_METADATA = [
  "uid",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "generation",
  "resourceVersion",
];

/**
 * The update stages, after the caller loaded the stored object and built the candidate (PUT: the
 * body; PATCH: the patched object; apply: the merged one):
 *
 * 1. decode: type check, `fieldValidation`, apiVersion/kind;
 * 2. checks against the stored object: identity, uid, resourceVersion, no finalizer added while
 *    deleting;
 * 3. candidate: server-owned metadata kept, scoped to `/status` or the main resource;
 * 4. defaulting, as upstream defaults on decoding; 5. managed fields (apply computed them already),
 *    before admission as upstream's, so what admission and the strategy change is no manager's;
 * 6. mutating admission;
 * 7. defaulting again, the kind's strategy (its `prepareUpdate`), generation, validation — in this
 *    file's `prepareUpdateSteps`;
 * 8. Go's encoding (emptied values dropped, zero values filled in); 9. validating admission;
 * 10. storage: converted to the storage version, checked unchanged if the request paused, committed
 *     (no write when nothing changed; a removed last finalizer completes a pending deletion);
 * 11. present: in the requested version, with the warnings.
 */
export async function commitUpdate(
  ctx: c.HandlerContext,
  r: ServedResource,
  req: UpdateRequest,
  old: c.KubeObject,
  candidate: Record<string, unknown>,
  kind: "update" | "patch",
): Promise<c.ApiResponse> {
  const requireResourceVersion = kind === "update";
  if (req.large) await pause();
  const source = requireResourceVersion ? "body" : "patch";
  // A built-in object's type check, quantities and unknown fields: one walk and one private copy.
  const typed = r.custom ? undefined : decodeBuiltin(r, candidate, source);
  // Only a large update may pause here: an await of nothing would let others write after our read.
  if (req.large) await pause();
  const checked = enforceFieldValidation(r, candidate, req.query, kind, req, typed);
  const dryRun = parseDryRun(req.query);
  checkTypeMeta(r, checked.object);
  const meta = c.metadataOf(checked.object);
  checkIdentity(r, meta, req);
  checkUidUnchanged(r, req.name, meta, old.metadata.uid);
  checkResourceVersion(r, req.name, meta, c.metadataOf(old), requireResourceVersion);
  checkFinalizersWhileDeleting(r, req.name, meta, c.metadataOf(old));
  if (req.large) await pause();
  let next = candidateUpdate(r, req, old, checked.object, typed !== undefined);
  const admitting = {
    operation: "UPDATE",
    namespace: req.namespace,
    name: req.name,
    subresource: req.subresource,
    user: req.user,
    oldObject: old,
    dryRun,
    warnings: [] as string[],
  } as const;
  // As upstream: defaulted as decoded, then the managed fields, then mutating admission.
  defaultAsDecoded(r, next);
  if (!req.managedFieldsDone) {
    const view = typed ? withoutEmptied(next, typed.emptied) : next;
    const recording = recordManagedFields(ctx, r, old, next, view, req);
    if (recording) await recording;
  }
  const admitted = mutatingAdmission(ctx, admissionAttributes(r, admitting, next));
  if (admitted) await admitted;
  const preparing = prepareUpdateSteps(ctx, r, req, old, next);
  const prepared = req.large ? await runYielding(preparing) : runAtOnce(preparing);
  next = prepared.next;
  if (prepared.validating) await prepared.validating;
  // The strategy's warnings (status writes have none upstream), before validating admission's.
  if (!r.custom && !req.subresource) admitting.warnings.push(...(r.strategy?.warnings?.(next, old) ?? []));
  // Go's encoding of the validated object leaves out the request's empty omitempty maps and lists.
  if (typed && typed.emptied.length > 0) dropEmptied(next, typed.emptied);
  // Go's encoding writes zero values for the fields it always writes; no manager owns them.
  if (typed) next = goEncodedAs(next, r);
  const validated = validatingAdmission(ctx, admissionAttributes(r, admitting, next));
  if (validated) await validated;
  const converted = storedForm(r, next);
  const toStore = converted instanceof Promise ? await converted : converted;
  if (req.large || converted instanceof Promise || prepared.validating) {
    if (req.large) await pause();
    const stored = ctx.store.get(r.bucket, c.objectKey(r, req.namespace, req.name));
    if (stored?.metadata.resourceVersion !== old.metadata.resourceVersion) throw new ChangedWhilePaused();
  }
  const res = dryRun ? { code: 200, body: toStore } : persist(ctx, r, req, old, next, toStore);
  const body = res.body === old ? old : presentOne(r, res.body);
  const presented = body instanceof Promise ? await body : body;
  if (req.large) await pause();
  const warnings = [...checked.warnings, ...admitting.warnings];
  return { code: res.code, body: presented, headers: warningHeaders(warnings) };
}

function checkResourceVersion(
  r: ServedResource,
  name: string,
  meta: Record<string, unknown>,
  oldMeta: Record<string, unknown>,
  required: boolean,
): void {
  const rv = meta.resourceVersion;
  if (required && (rv === undefined || rv === "") && !r.allowUnconditionalUpdate)
    throw errors.invalid(r.kind, r.group, name, [
      {
        type: "FieldValueInvalid",
        field: "metadata.resourceVersion",
        value: 0,
        detail: "must be specified for an update",
      },
    ]);
  if (rv !== undefined && rv !== "" && String(rv) !== String(oldMeta.resourceVersion))
    throw errors.staleResourceVersion(c.qualified(r), name);
}

function checkFinalizersWhileDeleting(
  r: ServedResource,
  name: string,
  meta: Record<string, unknown>,
  oldMeta: Record<string, unknown>,
): void {
  if (oldMeta.deletionTimestamp === undefined) return;
  const oldF = new Set((oldMeta.finalizers as string[] | undefined) ?? []);
  const added = ((meta.finalizers as string[] | undefined) ?? []).filter((f) => !oldF.has(f));
  if (added.length > 0)
    throw errors.invalid(r.kind, r.group, name, [
      {
        type: "FieldValueForbidden",
        field: "metadata.finalizers",
        detail: "no new finalizers can be added if the object is being deleted",
      },
    ]);
}

/**
 * The object an update proposes: server metadata kept, scoped to the subresource; private to the
 * request, since defaulting mutates it in place. `owned`: the candidate is the decode's private
 * copy already (typed-decode.ts), so only what comes from the stored object is copied.
 */
function candidateUpdate(
  r: ServedResource,
  req: UpdateRequest,
  old: c.KubeObject,
  candidate: Record<string, unknown>,
  owned: boolean,
): c.KubeObject {
  const oldMeta = c.metadataOf(old);
  // The copy gains the kept keys the body left out (api/copy.ts cloneToExtend).
  const newMeta = normalizeDecodedMetadata(cloneToExtend(c.metadataOf(candidate)));
  for (const k of KEPT_METADATA) {
    if (oldMeta[k] === undefined) delete newMeta[k];
    else newMeta[k] = oldMeta[k];
  }
  newMeta.name = req.name;
  if (r.namespaced) newMeta.namespace = req.namespace;
  else delete newMeta.namespace;
  const typed = withTypeMeta(r, candidate, newMeta);
  // Defaulting mutates in place; the candidate may share subtrees with the stored object.
  if (!owned || req.subresource !== undefined)
    return copyDecoded(mergeForSubresource(r, old, typed, req.subresource));
  // The main resource takes only the stored status (when it has one) from the stored object.
  const next = mergeForSubresource(r, old, typed, undefined);
  if (next.status !== undefined && next.status === old.status) next.status = copyDecoded(old.status);
  return next;
}

/**
 * Defaulting, the kind's prepare-for-update, generation and validation; `validating` when
 * validation ends later (expensive CEL rules, write-checks.ts).
 */
function* prepareUpdateSteps(
  ctx: c.HandlerContext,
  r: ServedResource,
  req: UpdateRequest,
  old: c.KubeObject,
  candidate: c.KubeObject,
): Steps<{ next: c.KubeObject; validating: Promise<void> | undefined }> {
  const oldMeta = c.metadataOf(old);
  let next = candidate;
  if (r.custom) r.custom.applyDefaults(next);
  else r.strategy?.defaults?.(next);
  r.strategy?.prepareUpdate?.(next, old, req.subresource);
  if (r.tracksGeneration && specChanged(old, next))
    next = { ...next, metadata: { ...next.metadata, generation: Number(oldMeta.generation ?? 0) + 1 } };
  const validating = yield* validateSteps(r, next, old, ctx.settings.maxDataBytes, req.subresource);
  return { next, validating };
}

/** The commit; answers `old` itself when nothing changed, else the stored object (to be presented). */
function persist(
  ctx: c.HandlerContext,
  r: ServedResource,
  req: UpdateRequest,
  old: c.KubeObject,
  next: c.KubeObject,
  toStore: c.KubeObject,
): { code: number; body: c.KubeObject } {
  // Nothing changed: upstream skips the write, so the resourceVersion stays.
  if (sameButResourceVersion(old, next)) return { code: 200, body: old };
  const key = c.objectKey(r, req.namespace, req.name);
  // The last finalizer went away: the pending deletion completes now.
  if (deletionCompletes(r, old, next)) return { code: 200, body: ctx.store.delete(r.bucket, key) };
  try {
    const expected = Number(old.metadata.resourceVersion);
    const saved = ctx.store.update(r.bucket, key, toStore, expected, ctx.settings.maxObjectBytes);
    return { code: 200, body: saved };
  } catch (e) {
    if (e instanceof ObjectTooLargeError) throw objectTooLarge();
    if (e instanceof PreconditionError) throw errors.staleResourceVersion(c.qualified(r), req.name);
    throw e;
  }
}

/**
 * An update of an object being deleted that leaves no finalizer completes the deletion, unless a
 * grace period is still running (pods); a namespace also waits for its spec finalizers.
 */
export function deletionCompletes(r: ServedResource, old: c.KubeObject, next: c.KubeObject): boolean {
  if (old.metadata.deletionTimestamp === undefined) return false;
  if (((next.metadata.finalizers as string[] | undefined) ?? []).length > 0) return false;
  if (Number(old.metadata.deletionGracePeriodSeconds ?? 0) !== 0) return false;
  if (r.group === "" && r.resource === "namespaces")
    return ((next.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).length === 0;
  return true;
}

/**
 * No change but the resourceVersion and the managed fields' times: as upstream's field manager, a
 * write whose entries differ only in when they were made (a re-apply a second later) is no write.
 */
function sameButResourceVersion(old: c.KubeObject, next: c.KubeObject): boolean {
  const { resourceVersion: _o, managedFields: oldFields, ...oldRest } = old.metadata;
  const { resourceVersion: _n, managedFields: nextFields, ...nextRest } = next.metadata;
  // Decoded objects are compared, so a body that only reorders keys is no change.
  return (
    jsonEqual({ ...old, metadata: oldRest }, { ...next, metadata: nextRest }) &&
    jsonEqual(withoutTimes(oldFields), withoutTimes(nextFields))
  );
}

function withoutTimes(fields: unknown): unknown {
  if (!Array.isArray(fields)) return fields;
  return fields.map((e: unknown) => {
    if (typeof e !== "object" || e === null) return e;
    const { time: _t, ...rest } = e as Record<string, unknown>;
    return rest;
  });
}

/**
 * What a change is allowed to touch: the main resource leaves status alone, /status touches only
 * status, a CSR's /approval only the status conditions.
 */
function mergeForSubresource(
  r: ServedResource,
  old: c.KubeObject,
  next: c.KubeObject,
  subresource: string | undefined,
): c.KubeObject {
  if (subresource === "status") {
    // Custom resources keep the stored metadata but for managedFields (recomputed, or set by apply);
    // built-in kinds keep what the write sends but for the fields their status strategy resets.
    const mf = next.metadata.managedFields;
    const reset = r.custom ? undefined : (r.strategy?.statusResetsMetadata ?? []);
    const metadata = reset ? { ...next.metadata } : { ...old.metadata };
    for (const k of reset ?? []) {
      if (old.metadata[k] === undefined) delete metadata[k];
      else metadata[k] = old.metadata[k];
    }
    if (mf === undefined) delete metadata.managedFields;
    else metadata.managedFields = mf;
    return { ...old, metadata, status: next.status } as c.KubeObject;
  }
  if (subresource === "approval") {
    // A CertificateSigningRequest's approval changes its conditions only (metadata as the main resource).
    const status = {
      ...(old.status as object | undefined),
      conditions: (next.status as { conditions?: unknown } | undefined)?.conditions,
    };
    return { ...next, spec: old.spec, status } as c.KubeObject;
  }
  if (hasStatus(r)) {
    const out = { ...next };
    if (old.status === undefined) delete out.status;
    else out.status = old.status;
    return out;
  }
  return next;
}

/** Whether anything but metadata and status differs; the order of fields does not count (a typed client writes its own). */
function specChanged(old: c.KubeObject, next: c.KubeObject): boolean {
  const strip = (o: c.KubeObject) => {
    const { metadata: _m, status: _s, ...rest } = o;
    return rest;
  };
  // Go's semantic equality: an unset field and a null one are the same (the stored object has the
  // nulls Go writes, a decoded candidate has none).
  return !sameValue(strip(old), strip(next));
}
