/** Stamps managedFields on an object being written by an Update operation (create/update/patch). */

import { type FieldSet, schemaFor } from "@kubesdk/models";
import { cloneToExtend } from "../../api/copy.js";
import { nowTimestamp } from "../../api/names.js";
import { runAtOnce, runYielding, type Steps } from "../../api/steps.js";
import { customTypeNode } from "../../apply/custom-schema.js";
import {
  baseEntries,
  leafSetSteps,
  type ManagedFieldsEntry,
  managerName,
  recordCreateSteps,
  recordUpdateSteps,
  recordUpdateWalked,
} from "../../fieldmanager/managed-fields.js";
import { type FieldScope, fieldSetOf, leafFields } from "../../fieldmanager/object-fields.js";
import { apiVersionOf, hasStatus, type ServedResource } from "../../resources/served.js";
import type { HandlerContext, KubeObject } from "./context.js";

export interface ManagerContext {
  readonly query: URLSearchParams;
  readonly userAgent?: string | undefined;
  readonly subresource?: string | undefined;
}

/**
 * Entries a write can keep. Upstream cannot convert the fields of an entry recorded through the other
 * API of a resource stored in one shape (core and events.k8s.io events), so it drops such entries.
 */
function entriesOfThisApi<T extends { apiVersion?: unknown }>(r: ServedResource, entries: T[]): T[] {
  if (!r.convert || r.convert.betweenVersions) return entries;
  const apiVersion = apiVersionOf(r);
  return entries.filter((e) => e.apiVersion === apiVersion);
}

/**
 * The managed-fields stage, which kube-apiserver runs before mutating admission (create.go,
 * update.go, patch.go): the entries of `next` against `old` (none for a create), computed from
 * `view` (`next` as Go's field manager reads it, openapi/drop-emptied.ts withoutEmptied) and set on
 * `next`'s own metadata, so that what admission and the strategy add later is no manager's. A
 * large request's pauses between its costly steps make it a promise.
 */
export function recordManagedFields(
  ctx: HandlerContext,
  r: ServedResource,
  old: KubeObject | undefined,
  next: KubeObject,
  view: KubeObject,
  mc: ManagerContext & { readonly large?: boolean | undefined },
): Promise<void> | undefined {
  if (!mc.large) {
    setEntriesOf(next, withManagedFields(ctx, r, old, view, mc));
    return undefined;
  }
  return runYielding(managedFieldsSteps(ctx, r, old, view, mc, true)).then((stamped) =>
    setEntriesOf(next, stamped),
  );
}

/** `next` with its managed fields against `old` (a copy; `pnpm bench:server:cpu` measures it). */
export function withManagedFields(
  ctx: HandlerContext,
  r: ServedResource,
  old: KubeObject | undefined,
  next: KubeObject,
  mc: ManagerContext,
): KubeObject {
  return runAtOnce(managedFieldsSteps(ctx, r, old, next, mc, false));
}

/** `next`'s metadata (the request's own copy) takes the entries of `stamped`, or loses its own. */
function setEntriesOf(next: KubeObject, stamped: KubeObject): void {
  const entries = stamped.metadata.managedFields;
  if (entries === undefined) delete next.metadata.managedFields;
  else next.metadata.managedFields = entries;
}

function* managedFieldsSteps(
  ctx: HandlerContext,
  r: ServedResource,
  old: KubeObject | undefined,
  next: KubeObject,
  mc: ManagerContext,
  large: boolean,
): Steps<KubeObject> {
  const schema = r.custom
    ? customTypeNode(r)
    : schemaFor({ group: r.group, version: r.version, kind: r.kind });
  const scope: FieldScope = !hasStatus(r) ? "all" : mc.subresource === "status" ? "status" : "main";
  const all = baseEntries(next.metadata.managedFields, old?.metadata.managedFields);
  const base = entriesOfThisApi(r, all);
  if (old && all.length === 0) {
    // An existing object without managedFields (never tracked, or reset) stays untracked by
    // Update operations, as upstream does; the next server-side apply starts tracking again.
    const { managedFields: _m, ...metadata } = next.metadata;
    return { ...next, metadata: metadata as KubeObject["metadata"] };
  }
  const recorded = {
    entries: base,
    manager: managerName(mc.query, mc.userAgent),
    apiVersion: apiVersionOf(r),
    // Writes through a subresource (status, scale) are recorded as that subresource's manager.
    subresource: mc.subresource,
    time: nowTimestamp(ctx.now()),
  };
  let entries: ManagedFieldsEntry[];
  if (old && !large) {
    entries = recordUpdateWalked(Object.assign(recorded, { old, next, schema, scope }));
  } else if (old) {
    // A large object's leaves are compared in slices, with pauses between them.
    const oldLeaves = leafFields(old, schema, scope);
    yield;
    const newLeaves = leafFields(next, schema, scope, "all");
    yield;
    entries = yield* recordUpdateSteps(Object.assign(recorded, { oldLeaves, newLeaves }));
  } else {
    // A create changes every field: nothing is compared. Its set is built by one walk, but for a
    // large object, which builds it from leaf paths a slice at a time between pauses.
    let fields: FieldSet;
    if (large) {
      const leaves = leafFields(next, schema, scope, "zero", false);
      yield;
      fields = yield* leafSetSteps(leaves);
    } else fields = fieldSetOf(next, schema, scope, "zero");
    yield;
    entries = yield* recordCreateSteps(Object.assign(recorded, { fields }));
  }
  // A create's metadata gains managedFields (api/copy.ts cloneToExtend).
  const metadata = cloneToExtend(next.metadata);
  if (entries.length > 0) metadata.managedFields = entries;
  else delete metadata.managedFields;
  return { ...next, metadata };
}
