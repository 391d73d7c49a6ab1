/**
 * PATCH with application/apply-patch+yaml: validates the apply request as
 * upstream does, runs server-side apply against the live object (or an empty
 * one: apply creates), and commits through the shared write pipeline.
 */

import { schemaFor } from "@kubesdk/models";
import { nowTimestamp } from "../api/names.js";
import { queryOptionalBool } from "../api/query-bool.js";
import { errors, StatusError } from "../api/status.js";
import { runAtOnce, runYielding } from "../api/steps.js";
import { ChangedWhilePaused, updateWithRetries } from "../endpoints/handlers/commit-update.js";
import type { ApiResponse, HandlerContext, KubeObject } from "../endpoints/handlers/context.js";
import { findObject, metadataOf } from "../endpoints/handlers/context.js";
import { findPresented } from "../endpoints/handlers/converted.js";
import { checkFieldManager } from "../endpoints/handlers/options.js";
import { commitUpdate, createObject } from "../endpoints/handlers/write.js";
import type { FieldScope } from "../fieldmanager/object-fields.js";
import type { UserInfo } from "../http/auth.js";
import { checkApplyConfiguration, warningHeaders } from "../openapi/field-validation.js";
import { apiVersionOf, hasStatus, type ServedResource } from "../resources/served.js";
import { customTypeNode } from "./custom-schema.js";
import { serverSideApplySteps } from "./server-side-apply.js";

export interface ApplyRequest {
  readonly namespace: string | undefined;
  readonly name: string;
  readonly subresource?: string;
  readonly query: URLSearchParams;
  readonly userAgent?: string | undefined;
  readonly user?: UserInfo | undefined;
  readonly patch: unknown;
  /** The patch's repeated YAML keys, in upstream's words (http/decode-object.ts). */
  readonly duplicateFields?: readonly string[];
  /** A limit-sized apply: creating, it pauses between steps (api/steps.ts). */
  readonly large?: boolean;
}

export async function applyObject(
  ctx: HandlerContext,
  r: ServedResource,
  req: ApplyRequest,
): Promise<ApiResponse> {
  const manager = req.query.get("fieldManager") ?? "";
  if (manager === "")
    throw errors.invalid("PatchOptions", "meta.k8s.io", "", [
      { type: "FieldValueRequired", field: "fieldManager", detail: "is required for apply patch" },
    ]);
  checkFieldManager(manager, "PatchOptions");
  const force = queryOptionalBool(req.query, "force") ?? false;
  const body = checkApplyBody(r, req);
  const warnings = checkApplyConfiguration(r, body, req.query, req.duplicateFields ?? []);
  const res = await updateWithRetries(req.large, (large) =>
    applyOnce(ctx, r, req, { manager, force, body, large }),
  );
  return warnings.length === 0 ? res : withWarnings(res, warnings);
}

/** The response with `warnings` before the ones the write itself gave. */
function withWarnings(res: ApiResponse, warnings: readonly string[]): ApiResponse {
  const extra = warningHeaders(warnings).Warning ?? "";
  const own = res.headers?.Warning;
  return { ...res, headers: { ...res.headers, Warning: own ? `${extra}, ${own}` : extra } };
}

interface CheckedApply {
  readonly manager: string;
  readonly force: boolean;
  readonly body: Record<string, unknown>;
  /** Pause between steps; the object changing meanwhile ends in ChangedWhilePaused (then a rerun). */
  readonly large: boolean;
}

async function applyOnce(
  ctx: HandlerContext,
  r: ServedResource,
  req: ApplyRequest,
  a: CheckedApply,
): Promise<ApiResponse> {
  const found = findPresented(ctx, r, req.namespace, req.name);
  const live = found instanceof Promise ? await found : found;
  const scope: FieldScope = !hasStatus(r) ? "all" : req.subresource === "status" ? "status" : "main";
  const schema = r.custom
    ? customTypeNode(r)
    : schemaFor({ group: r.group, version: r.version, kind: r.kind });
  const appliedForScope =
    scope === "main" ? withoutStatus(a.body) : scope === "status" ? { status: a.body.status } : a.body;
  const steps = serverSideApplySteps({
    live,
    sharedShape: r.convert !== undefined && !r.convert.betweenVersions,
    applied: { ...appliedForScope, metadata: { ...metadataOf(a.body), name: req.name } },
    manager: a.manager,
    force: a.force,
    apiVersion: apiVersionOf(r),
    subresource: req.subresource === "status" ? "status" : undefined,
    scope,
    schema,
    time: nowTimestamp(ctx.now()),
  });
  const result = a.large ? await runYielding(steps) : runAtOnce(steps);
  const common = {
    namespace: req.namespace,
    query: req.query,
    userAgent: req.userAgent,
    user: req.user,
    managedFieldsDone: true,
    large: a.large,
  };
  if (live) {
    const target = {
      ...common,
      name: req.name,
      ...(req.subresource ? { subresource: req.subresource } : {}),
    };
    return commitUpdate(ctx, r, target, live, result as KubeObject, "patch");
  }
  if (req.subresource) throw errors.notFound({ group: r.group, resource: r.resource }, req.name);
  try {
    return await createObject(ctx, r, { ...common, body: result });
  } catch (e) {
    // Created by another request while this one paused: apply again, to the live object.
    const created = e instanceof StatusError && e.status.reason === "AlreadyExists";
    // Paused, or waited for a conversion webhook or for CEL rules on a worker thread.
    const waited = a.large || r.custom !== undefined;
    if (waited && created && findObject(ctx, r, req.namespace, req.name)) throw new ChangedWhilePaused();
    throw e;
  }
}

/** The apply configuration, after upstream's checks of its shape, type meta and name. */
function checkApplyBody(r: ServedResource, req: ApplyRequest): Record<string, unknown> {
  const applied = req.patch;
  if (typeof applied !== "object" || applied === null || Array.isArray(applied))
    throw errors.badRequest("the apply configuration must be an object");
  const body = applied as Record<string, unknown>;
  const meta = metadataOf(body);
  if (meta.managedFields !== undefined && meta.managedFields !== null)
    throw errors.badRequest("metadata.managedFields must be nil");
  const want = apiVersionOf(r);
  if (body.apiVersion !== want)
    throw errors.badRequest(
      `the API version in the data (${String(body.apiVersion ?? "")}) does not match the expected API version (${want})`,
    );
  if (body.kind !== r.kind)
    throw errors.badRequest(
      `the kind in the data (${String(body.kind ?? "")}) does not match the expected kind (${r.kind})`,
    );
  if (meta.name === undefined || meta.name === "")
    throw errors.badRequest(
      `the name of the object (${req.name} based on URL) was undeterminable: name must be provided`,
    );
  if (meta.name !== req.name)
    throw errors.badRequest(
      `the name of the object (${String(meta.name)}) does not match the name on the URL (${req.name})`,
    );
  return body;
}

function withoutStatus(body: Record<string, unknown>): Record<string, unknown> {
  const { status: _s, ...rest } = body;
  return rest;
}
