/**
 * create / update: the write pipeline shared by every resource. The create's stages are listed at
 * `createObject`; updates, patches and applies of existing objects end in commit-update.ts.
 */

import { randomUUID } from "node:crypto";
import { cloneToExtend } from "../../api/copy.js";
import { generateName, nowTimestamp } from "../../api/names.js";
import { errors } from "../../api/status.js";
import { pause, runAtOnce, runYielding, type Steps } from "../../api/steps.js";
import type { UserInfo } from "../../http/auth.js";
import { objectTooLarge } from "../../http/limits.js";
import type { BodyType } from "../../http/negotiate.js";
import { dropEmptied, withoutEmptied } from "../../openapi/drop-emptied.js";
import { enforceFieldValidation, warningHeaders } from "../../openapi/field-validation.js";
import { goEncodedAs } from "../../openapi/go-written.js";
import { apiVersionOf, hasStatus, type ServedResource } from "../../resources/served.js";
import { PreconditionError, type StoredObject } from "../../storage/mvcc.js";
import { ObjectTooLargeError } from "../../storage/object-text.js";
import { normalizeDecodedMetadata } from "../../validation/metadata-decode.js";
import { admissionAttributes, mutatingAdmission, validatingAdmission } from "./admission-stage.js";
import { commitUpdate, updateWithRetries } from "./commit-update.js";
import * as c from "./context.js";
import { loadPresented, presentOne, storedForm } from "./converted.js";
import { recordManagedFields } from "./managed.js";
import { parseDryRun } from "./options.js";
import {
  checkIdentity,
  checkTypeMeta,
  decodeBuiltin,
  defaultAsDecoded,
  SERVER_METADATA,
  validateSteps,
  withTypeMeta,
} from "./write-checks.js";

export { commitUpdate } from "./commit-update.js";

export interface WriteRequest {
  readonly namespace: string | undefined;
  readonly name?: string;
  readonly subresource?: string;
  readonly query: URLSearchParams;
  readonly body: Record<string, unknown>;
  readonly userAgent?: string | undefined;
  /** Who writes: a CertificateSigningRequest records its requester. */
  readonly user?: UserInfo | undefined;
  /** Set by server-side apply, which computes managedFields itself. */
  readonly managedFieldsDone?: boolean;
  /** Keys the request body repeats (JSON.parse keeps the last), for fieldValidation. */
  readonly duplicateFields?: readonly string[];
  /** The body's text when it repeats keys (a typed object's strict errors are read from it in order). */
  readonly repeatedKeysText?: string;
  /** A limit-sized request: a create pauses between its costly steps (api/steps.ts). */
  readonly large?: boolean;
}

export type PatchRequest = Omit<WriteRequest, "body"> & { name: string; patchType: BodyType; patch: unknown };

/**
 * POST, in stages (upstream: endpoints/handlers/create.go, then the generic registry's Create):
 *
 * 1. decode: type check against the kind's schema, `fieldValidation`, apiVersion/kind;
 * 2. server metadata: identity, generateName, uid, creationTimestamp, generation;
 * 3. defaulting, as upstream defaults on decoding;
 * 4. managed fields (server-side apply computed them already), before admission as upstream's;
 * 5. mutating admission;
 * 6. defaulting again, strategy (`prepareCreate`), validation: `prepareNewSteps`;
 * 7. Go's encoding: the emptied values dropped, the zero values Go always writes filled in;
 * 8. validating admission;
 * 9. storage: converted to the storage version and committed (a dry run only checks the name);
 * 10. present: in the requested version, with the warnings of decoding and admission.
 *
 * A virtual kind (a review) leaves after stage 1 for `answerVirtual`. A large request pauses between
 * its costly stages, and inside validation where the kind's `validateSteps` says (api/steps.ts).
 */
export async function createObject(
  ctx: c.HandlerContext,
  r: ServedResource,
  req: WriteRequest,
): Promise<c.ApiResponse> {
  // Nothing is read from the store before the commit, so a large create may pause between steps.
  if (req.large) await pause();
  // A built-in object's type check, quantities and unknown fields: one walk and one private copy.
  const typed = r.custom ? undefined : decodeBuiltin(r, req.body, "body");
  if (req.large) await pause();
  const checked = enforceFieldValidation(r, req.body, req.query, "create", req, typed);
  const dryRun = parseDryRun(req.query);
  checkTypeMeta(r, checked.object);
  if (r.virtual) return answerVirtual(ctx, r, req, checked.object, dryRun);
  if (req.large) await pause();
  let obj = withServerMetadata(ctx, r, req, checked.object);
  const admitting = {
    operation: "CREATE",
    namespace: req.namespace,
    user: req.user,
    dryRun,
    warnings: [] as string[],
  } as const;
  // The name may still be unset here: a kind's prepareCreate may choose it (LimitRanges).
  const unnamed = String(obj.metadata.name ?? "");
  // Upstream defaults an object as it decodes it, so the requester owns the defaults and mutating
  // plugins (LimitRanger) see them; prepareNewSteps defaults again after they changed it.
  defaultAsDecoded(r, obj);
  if (!req.managedFieldsDone) {
    // Before mutating admission, as upstream: what admission and the strategy add is no manager's.
    const view = typed ? withoutEmptied(obj, typed.emptied, typed.zeroed) : obj;
    const recording = recordManagedFields(ctx, r, undefined, obj, view, req);
    if (recording) await recording;
  }
  const admitted = mutatingAdmission(ctx, admissionAttributes(r, admitting, obj, unnamed));
  if (admitted) await admitted;
  // A kind that allocates from what is stored commits in the turn it allocated in: no pause.
  const preparing = prepareNewSteps(ctx, r, req, obj);
  const validating =
    req.large && !r.strategy?.allocates ? await runYielding(preparing) : runAtOnce(preparing);
  if (validating) await validating;
  // Upstream records the strategy's warnings once validation passed, before validating admission.
  if (!r.custom) admitting.warnings.push(...(r.strategy?.warnings?.(obj, undefined) ?? []));
  // Go's encoding of the validated object leaves out the request's empty omitempty maps and lists.
  if (typed && typed.emptied.length > 0) dropEmptied(obj, typed.emptied);
  const name = String(obj.metadata.name);
  // Go's encoding writes zero values for the fields it always writes; no manager owns them.
  if (typed) obj = goEncodedAs(obj, r);
  const validated = validatingAdmission(ctx, admissionAttributes(r, admitting, obj, name));
  if (validated) await validated;
  const converted = storedForm(r, obj);
  const stored = converted instanceof Promise ? await converted : converted;
  const saved = persistNew(ctx, r, c.objectKey(r, req.namespace, name), stored, dryRun);
  const presented = presentOne(r, saved);
  const body = presented instanceof Promise ? await presented : presented;
  if (req.large) await pause();
  const warnings = [...checked.warnings, ...admitting.warnings];
  return { code: 201, body, headers: warningHeaders(warnings) };
}

/**
 * A create of a virtual kind (a review): admission, defaults and the kind's prepare-for-create,
 * which fills in the answer; nothing is stored. The metadata is the request's, as upstream echoes it.
 */
async function answerVirtual(
  ctx: c.HandlerContext,
  r: ServedResource,
  req: WriteRequest,
  body: Record<string, unknown>,
  dryRun: boolean,
): Promise<c.ApiResponse> {
  const metadata: Record<string, unknown> = { ...c.metadataOf(body), creationTimestamp: null };
  if (r.namespaced) metadata.namespace = req.namespace;
  const obj = { ...body, apiVersion: apiVersionOf(r), kind: r.kind, metadata } as c.KubeObject;
  const name = String(metadata.name ?? "");
  const warnings: string[] = [];
  const admitting = {
    operation: "CREATE",
    namespace: req.namespace,
    name,
    user: req.user,
    dryRun,
    warnings,
  } as const;
  const admitted = mutatingAdmission(ctx, admissionAttributes(r, { ...admitting, object: obj }));
  if (admitted) await admitted;
  r.strategy?.defaults?.(obj);
  const causes = r.strategy?.validate?.(obj, undefined) ?? [];
  // Upstream's reviews name no kind in this error: their internal objects carry none.
  if (causes.length > 0) throw errors.invalid("", r.group, name, causes);
  r.strategy?.prepareCreate?.(obj, ctx, req.user);
  const validated = validatingAdmission(ctx, admissionAttributes(r, { ...admitting, object: obj }));
  if (validated) await validated;
  return { code: 201, body: obj, headers: warningHeaders(warnings) };
}

/** A new object's metadata: identity checked, name generated, server-owned fields set. */
function withServerMetadata(
  ctx: c.HandlerContext,
  r: ServedResource,
  req: WriteRequest,
  body: Record<string, unknown>,
): c.KubeObject {
  // Object.assign, not a spread: the copy gains keys below (see api/copy.ts cloneToExtend).
  const meta = normalizeDecodedMetadata(cloneToExtend(c.metadataOf(body)));
  checkIdentity(r, meta, { namespace: req.namespace });
  if (r.namespaced) meta.namespace = req.namespace;
  else delete meta.namespace;
  // A name that is still missing after this is refused by validation (or chosen by the kind's hooks).
  if (!meta.name && typeof meta.generateName === "string" && meta.generateName !== "")
    meta.name = generateName(meta.generateName);
  for (const k of SERVER_METADATA) delete meta[k];
  meta.uid = randomUUID();
  meta.creationTimestamp = nowTimestamp(ctx.now());
  if (r.tracksGeneration) meta.generation = 1;
  return withTypeMeta(r, body, meta);
}

/**
 * Defaulting, status reset, the kind's prepare-for-create and validation, in place; a promise when
 * validation ends later (expensive CEL rules, write-checks.ts).
 */
function* prepareNewSteps(
  ctx: c.HandlerContext,
  r: ServedResource,
  req: WriteRequest,
  obj: c.KubeObject,
): Steps<Promise<void> | undefined> {
  if (r.custom) {
    // A CR keeps a status it was created with unless the status subresource owns it.
    if (hasStatus(r)) delete obj.status;
    r.custom.applyDefaults(obj);
  } else {
    r.strategy?.defaults?.(obj);
    if (hasStatus(r)) obj.status = {};
  }
  r.strategy?.prepareCreate?.(obj, ctx, req.user);
  const validating = yield* validateSteps(r, obj, undefined, ctx.settings.maxDataBytes);
  const canonicalize = () => r.strategy?.canonicalize?.(obj);
  if (validating) return validating.then(canonicalize);
  canonicalize();
  return undefined;
}

/** The create's commit (its storage form in, what was stored out). */
function persistNew(
  ctx: c.HandlerContext,
  r: ServedResource,
  key: string,
  stored: c.KubeObject,
  dryRun: boolean,
): StoredObject {
  const name = String(stored.metadata.name);
  if (dryRun) {
    if (ctx.store.get(r.bucket, key)) throw errors.alreadyExists(c.qualified(r), name);
    return stored;
  }
  try {
    return ctx.store.create(r.bucket, key, stored, ctx.settings.maxObjectBytes);
  } catch (e) {
    if (e instanceof ObjectTooLargeError) throw objectTooLarge();
    if (e instanceof PreconditionError) throw errors.alreadyExists(c.qualified(r), name);
    throw e;
  }
}

/**
 * PUT: load the stored object (in the requested version), check the body's uid precondition, then
 * the update stages of `commitUpdate`; run again when a large or converting update lost a race.
 */
export async function updateObject(
  ctx: c.HandlerContext,
  r: ServedResource,
  req: WriteRequest & { name: string },
): Promise<c.ApiResponse> {
  return updateWithRetries(req.large, async (large) => {
    const loaded = loadPresented(ctx, r, req.namespace, req.name);
    const old = loaded instanceof Promise ? await loaded : loaded;
    checkUidPrecondition(r, req.namespace, req.name, c.metadataOf(req.body).uid, old.metadata.uid);
    // The request as it came unless a rerun drops its pauses (a copy per update otherwise).
    const request = (req.large === true) === large ? req : { ...req, large };
    return commitUpdate(ctx, r, request, old, req.body, "update");
  });
}

/**
 * A PUT whose body carries a uid updates only that object (upstream makes it a storage
 * precondition): a different uid is a 409 worded as the storage layer words it.
 */
function checkUidPrecondition(
  r: ServedResource,
  namespace: string | undefined,
  name: string,
  uid: unknown,
  stored: unknown,
): void {
  if (typeof uid !== "string" || uid === "" || uid === stored) return;
  const key = `/registry/${r.custom ? `${r.group}/` : ""}${r.resource}/${namespace ? `${namespace}/` : ""}${name}`;
  throw errors.conflict(
    c.qualified(r),
    name,
    `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${uid}, UID in object meta: ${String(stored)}`,
  );
}
