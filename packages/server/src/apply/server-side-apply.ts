/**
 * Server-side apply on top of FieldSet and structured merge (docs/api-semantics.md §6):
 * conflicts where another manager owns a field the applier sets to a
 * different value (409, or taken over with force), shared ownership for equal
 * values, removal of fields this applier stopped applying that nobody else
 * owns, `before-first-apply` for objects that had no managedFields, and the
 * Apply entry holding exactly the applied configuration's fields.
 */
import type { TypeNode } from "@kubesdk/models";
import { FieldSet, formatPath } from "@kubesdk/models";
import { jsonEqual } from "../api/json-equal.js";
import { failure, type StatusCause } from "../api/status.js";
import { runAtOnce, type Steps } from "../api/steps.js";
import type { KubeObject } from "../endpoints/handlers/context.js";
import { decodeFields, entrySet } from "../fieldmanager/entry-sets.js";
import { type ManagedFieldsEntry, sortEntries } from "../fieldmanager/managed-fields.js";
import { type FieldScope, fieldSetOf } from "../fieldmanager/object-fields.js";
import { sharedFieldsV1 } from "../storage/shared-fields.js";
import { CSA_BRIDGE_MANAGER, lastAppliedOwned, syncLastApplied } from "./last-applied.js";
import { mergeApplied, pathWalker, removeAt } from "./structured-merge.js";

export interface ApplyInput {
  readonly live: KubeObject | undefined;
  readonly applied: Record<string, unknown>;
  readonly manager: string;
  readonly force: boolean;
  readonly apiVersion: string;
  readonly subresource: string | undefined;
  readonly scope: FieldScope;
  readonly schema: TypeNode | undefined;
  readonly time: string;
  /**
   * The resource is stored in another API's shape too (core and events.k8s.io events): entries
   * recorded through the other API are dropped, as upstream cannot convert their fields.
   */
  readonly sharedShape?: boolean;
}

interface Conflict {
  readonly entry: ManagedFieldsEntry;
  readonly path: readonly string[];
}

/** `"name"` for appliers, `"name" using v1` for updaters, with ` with subresource "x"` before `using`. */
export function describeManager(e: ManagedFieldsEntry): string {
  let s = `"${e.manager}"`;
  if (e.subresource) s += ` with subresource "${e.subresource}"`;
  if (e.operation === "Update") s += ` using ${e.apiVersion}`;
  return s;
}

function humanPath(keys: readonly string[]): string {
  return formatPath(
    keys.map((k) => {
      const rest = k.slice(2);
      if (k.startsWith("f:")) return { field: rest };
      if (k.startsWith("k:")) return { key: JSON.parse(rest) as Record<string, unknown> };
      if (k.startsWith("v:")) return { value: JSON.parse(rest) };
      return { index: Number(rest) };
    }),
  );
}

export function conflictError(conflicts: readonly Conflict[]): ReturnType<typeof failure> {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: "FieldManagerConflict",
    message: `conflict with ${describeManager(c.entry)}`,
    field: humanPath(c.path),
  }));
  let message: string;
  if (conflicts.length === 1) {
    const c = causes[0] as StatusCause;
    message = `Apply failed with 1 conflict: ${c.message}: ${c.field}`;
  } else {
    // Upstream groups by the manager's identifier (its JSON: manager, operation, apiVersion for
    // updaters, subresource) in byte order, each group's paths in field-path order.
    const groups = new Map<string, { who: string; paths: (readonly string[])[] }>();
    for (const c of conflicts) {
      const id = managerIdentifier(c.entry);
      const group = groups.get(id) ?? { who: describeManager(c.entry), paths: [] };
      group.paths.push(c.path);
      groups.set(id, group);
    }
    const parts = [...groups]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(
        ([, { who, paths }]) =>
          `conflicts with ${who}:\n${[...paths]
            .sort(comparePaths)
            .map((p) => `- ${humanPath(p)}`)
            .join("\n")}`,
      );
    message = `Apply failed with ${conflicts.length} conflicts: ${parts.join("\n")}`;
  }
  return failure(409, "Conflict", message, { causes });
}

/** The JSON upstream identifies a manager by, whose byte order sorts the conflict message. */
function managerIdentifier(e: ManagedFieldsEntry): string {
  return JSON.stringify({
    manager: e.manager,
    operation: e.operation,
    ...(e.operation === "Update" ? { apiVersion: e.apiVersion } : {}),
    ...(e.subresource ? { subresource: e.subresource } : {}),
  });
}

const KIND_ORDER = "fkvi";
/** Field-path order: element by element, fields before keys, values, indexes; then shorter first. */
function comparePaths(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    const kind = KIND_ORDER.indexOf(x[0] as string) - KIND_ORDER.indexOf(y[0] as string);
    if (kind !== 0) return kind;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

const isItemKey = (k: string) => k.startsWith("k:") || k.startsWith("v:") || k.startsWith("i:");

/** The live object's entries; an object never tracked gets one `before-first-apply` entry for what it holds. */
function startingEntries(input: ApplyInput): ManagedFieldsEntry[] {
  const { live, schema, scope } = input;
  const recorded = (live?.metadata.managedFields as ManagedFieldsEntry[] | undefined) ?? [];
  const kept = input.sharedShape ? recorded.filter((e) => e.apiVersion === input.apiVersion) : recorded;
  const entries = kept.map((e) => ({ ...e }));
  if (!live || recorded.length > 0) return entries;
  const existing = fieldSetOf(live, schema, scope, "no-structs");
  if (!existing.empty)
    entries.push({
      manager: "before-first-apply",
      operation: "Update",
      apiVersion: input.apiVersion,
      time: input.time,
      fieldsType: "FieldsV1",
      fieldsV1: sharedFieldsV1(existing),
    });
  return entries;
}

/** Fields other managers own that the apply sets to a different value. */
function findConflicts(input: ApplyInput, others: ManagedFieldsEntry[], appliedSet: FieldSet): Conflict[] {
  const conflicts: Conflict[] = [];
  for (const e of others) {
    const owned = entrySet(e.fieldsV1);
    if (!owned.intersects(appliedSet)) continue;
    const liveAt = pathWalker(input.live, input.schema);
    const appliedAt = pathWalker(input.applied, input.schema);
    for (const path of owned.intersection(appliedSet).paths()) {
      if (isItemKey(path[path.length - 1] as string)) continue;
      if (differ(liveAt(path).value, appliedAt(path).value)) conflicts.push({ entry: e, path });
    }
  }
  return conflicts;
}

/** Whether two values write different JSON (two strings, the common leaf, without writing it). */
function differ(a: unknown, b: unknown): boolean {
  if (typeof a === "string" && typeof b === "string") return a !== b;
  return JSON.stringify(a) !== JSON.stringify(b);
}

/** Throws the 409 unless forced (or a client-side-apply upgrade); a forced apply takes the fields over. */
function resolveConflicts(
  input: ApplyInput,
  others: ManagedFieldsEntry[],
  appliedSet: FieldSet,
): ManagedFieldsEntry[] {
  const conflicts = findConflicts(input, others, appliedSet);
  if (conflicts.length === 0) return others;
  let force = input.force;
  if (!force && input.manager === CSA_BRIDGE_MANAGER) {
    // Upgrading from client-side apply: fields the last-applied annotation still describes are taken over.
    const allowed = lastAppliedOwned(input.live, input.schema, input.scope);
    if (allowed && conflicts.every((c) => allowed.hasKeys(c.path))) force = true;
  }
  if (!force) throw conflictError(conflicts);
  const taken = FieldSet.fromPaths(conflicts.map((c) => [...c.path]));
  return others.map((e) => {
    const { set, canonical } = decodeFields(e.fieldsV1);
    if (set.intersects(taken)) return { ...e, fieldsV1: sharedFieldsV1(set.difference(taken)) };
    return canonical ? e : { ...e, fieldsV1: sharedFieldsV1(set) };
  });
}

/** Removes what the applier applied last time, no longer applies, and nobody else owns. */
function removeDropped(
  merged: KubeObject,
  mine: ManagedFieldsEntry,
  others: ManagedFieldsEntry[],
  appliedSet: FieldSet,
  schema: ApplyInput["schema"],
): KubeObject {
  let ownedByOthers = new FieldSet();
  for (const e of others) ownedByOthers = ownedByOthers.union(entrySet(e.fieldsV1));
  const removed = entrySet(mine.fieldsV1).difference(appliedSet).difference(ownedByOthers);
  let out = merged;
  for (const path of removed.paths()) {
    // A map or list item that still holds applied fields stays; only what nothing applies goes.
    if (appliedSet.hasPrefix(path) || ownedByOthers.hasPrefix(path)) continue;
    out = removeAt(out, path, schema) as KubeObject;
  }
  return out;
}

export function serverSideApply(input: ApplyInput): KubeObject {
  return runAtOnce(serverSideApplySteps(input));
}

/** serverSideApply with pauses (`yield`) between its costly steps (api/steps.ts). */
export function* serverSideApplySteps(input: ApplyInput): Steps<KubeObject> {
  const { live, applied, schema } = input;
  const appliedSet = fieldSetOf(applied, schema, input.scope, "none");
  yield;
  const entries = startingEntries(input);
  const isMine = (e: ManagedFieldsEntry) =>
    e.manager === input.manager &&
    e.operation === "Apply" &&
    (e.subresource ?? undefined) === input.subresource;
  const mine = entries.find(isMine);
  const others = resolveConflicts(
    input,
    entries.filter((e) => !isMine(e)),
    appliedSet,
  );
  let merged = mergeApplied(live ?? {}, applied, schema) as KubeObject;
  if (mine) merged = removeDropped(merged, mine, others, appliedSet, schema);
  yield;
  // Upstream stamps the applier's entry only when the apply changed the object; an applier that
  // only joins in on equal values keeps its old time, or has none yet.
  const time = changesObject(live, merged) ? input.time : mine?.time;
  const entry: ManagedFieldsEntry = {
    manager: input.manager,
    operation: "Apply",
    apiVersion: input.apiVersion,
    ...(time !== undefined ? { time } : {}),
    fieldsType: "FieldsV1",
    fieldsV1: sharedFieldsV1(appliedSet),
  };
  if (input.subresource) entry.subresource = input.subresource;
  const kept = others.filter((e) => !entrySet(e.fieldsV1).empty);
  const managedFields = sortEntries(appliedSet.empty ? kept : [...kept, entry]);
  const metadata = { ...merged.metadata };
  if (managedFields.length > 0) metadata.managedFields = managedFields;
  else delete metadata.managedFields;
  const out = { ...merged, metadata };
  return input.manager === CSA_BRIDGE_MANAGER ? syncLastApplied(live, out, applied) : out;
}

/**
 * Whether the apply changed anything but managedFields: deep equality of the two objects without
 * it, field by field, where mergeApplied's unchanged subtrees are the live ones and compare by
 * reference.
 */
function changesObject(live: KubeObject | undefined, merged: KubeObject): boolean {
  if (!live) return true;
  if (merged === live) return false;
  return !sameFields(live, merged, undefined, (k, a, b) =>
    k === "metadata" && isPlain(a) && isPlain(b) ? sameFields(a, b, "managedFields", same) : same(a, b),
  );
}

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === "object" && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => a === b || jsonEqual(a, b);

/** The same own keys with the same values, `skip` left out of the comparison. */
function sameFields(
  a: Plain,
  b: Plain,
  skip: string | undefined,
  eq: (k: string, x: unknown, y: unknown) => boolean,
): boolean {
  let count = 0;
  for (const k of Object.keys(a)) {
    if (k === skip) continue;
    count++;
    if (!Object.hasOwn(b, k) || !eq(k, a[k], b[k])) return false;
  }
  for (const k of Object.keys(b)) if (k !== skip) count--;
  return count === 0;
}
