/**
 * managedFields bookkeeping for Update operations (create, update, non-apply
 * patch): the writing manager owns what it added or changed, other managers
 * lose those fields, removed fields leave every set, at most 10 Update
 * managers are kept (older ones fold into `ancient-changes`), entries are
 * sorted as upstream sorts them. Server-side apply adds Apply entries on the
 * same FieldSet machinery.
 */

import { FieldSet, type TypeNode } from "@kubesdk/models";
import { runAtOnce, type Steps } from "../api/steps.js";
import { checkFieldManager } from "../endpoints/handlers/options.js";
import { sharedFieldsV1 } from "../storage/shared-fields.js";
import { decodeFields, entrySet } from "./entry-sets.js";
import { diffFields } from "./field-diff.js";
import { type FieldScope, type LeafMap, PATH_SEP } from "./object-fields.js";

export interface ManagedFieldsEntry {
  manager: string;
  operation: "Apply" | "Update";
  apiVersion: string;
  /** Absent on an applier that has not changed the object yet (upstream stamps changes only). */
  time?: string;
  fieldsType: "FieldsV1";
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

const MAX_UPDATE_MANAGERS = 10;
const ANCIENT = "ancient-changes";

/** The manager of a write: ?fieldManager, else the User-Agent up to its first "/", else "unknown". */
export function managerName(query: URLSearchParams, userAgent: string | undefined): string {
  const explicit = query.get("fieldManager");
  if (explicit !== null && explicit !== "") {
    checkFieldManager(explicit, "UpdateOptions");
    return explicit;
  }
  const ua = (userAgent ?? "").split("/")[0]?.trim();
  return ua ? ua : "unknown";
}

/** Paths turned into a set per step of a paused recordUpdate. */
const PATHS_PER_STEP = 20_000;

/** toSet with a pause (`yield`) after every PATHS_PER_STEP paths. */
function* toSetSteps(keys: readonly string[]): Steps<FieldSet> {
  const set = new FieldSet();
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && i % PATHS_PER_STEP === 0) yield;
    set.insertKeys((keys[i] as string).split(PATH_SEP));
  }
  return set;
}

/** The set of a LeafMap's paths, with a pause after every PATHS_PER_STEP of them (large objects). */
export function leafSetSteps(leaves: LeafMap): Steps<FieldSet> {
  return toSetSteps([...leaves.keys()]);
}

function toSet(keys: Iterable<string>): FieldSet {
  const set = new FieldSet();
  for (const k of keys) set.insertKeys(k.split(PATH_SEP));
  return set;
}

function isEntry(v: unknown): v is ManagedFieldsEntry {
  return typeof v === "object" && v !== null && typeof (v as ManagedFieldsEntry).manager === "string";
}

/**
 * The base entries a write starts from: none after a reset (`[]` or `[{}]`, which upstream treats
 * alike), what the client sent when it sent a real list, the stored ones when it sent nothing.
 */
export function baseEntries(sent: unknown, stored: unknown): ManagedFieldsEntry[] {
  if (Array.isArray(sent)) {
    if (sent.length === 0) return [];
    if (sent.length === 1 && typeof sent[0] === "object" && Object.keys(sent[0] ?? {}).length === 0)
      return [];
    if (sent.every(isEntry)) return sent.map((e) => ({ ...e }));
  }
  return Array.isArray(stored) ? (stored as ManagedFieldsEntry[]).map((e) => ({ ...e })) : [];
}

export interface UpdateRecord {
  readonly entries: ManagedFieldsEntry[];
  readonly oldLeaves: LeafMap;
  readonly newLeaves: LeafMap;
  readonly manager: string;
  readonly apiVersion: string;
  readonly subresource: string | undefined;
  readonly time: string;
}

/** The entries after an Update operation. */
export function recordUpdate(r: UpdateRecord): ManagedFieldsEntry[] {
  return runAtOnce(recordUpdateSteps(r));
}

/** recordUpdate with pauses (`yield`) between its costly steps (api/steps.ts). */
export function* recordUpdateSteps(r: UpdateRecord): Steps<ManagedFieldsEntry[]> {
  const changed: string[] = [];
  for (const [k, v] of r.newLeaves) if (r.oldLeaves.get(k) !== v) changed.push(k);
  const removed: string[] = [];
  for (const k of r.oldLeaves.keys()) if (!r.newLeaves.has(k)) removed.push(k);
  yield;
  const changedSet = yield* toSetSteps(changed);
  const removedSet = yield* toSetSteps(removed);
  yield;
  const present = () => toSet(r.newLeaves.keys());
  return yield* entriesAfterSteps(r, changedSet, removedSet, present, changed.length > 0);
}

export interface WalkedUpdateRecord extends Omit<UpdateRecord, "oldLeaves" | "newLeaves"> {
  readonly old: Record<string, unknown>;
  readonly next: Record<string, unknown>;
  readonly schema: TypeNode | undefined;
  readonly scope: FieldScope;
}

/** recordUpdate from the two objects, compared by one walk each (field-diff.ts), without pauses. */
export function recordUpdateWalked(r: WalkedUpdateRecord): ManagedFieldsEntry[] {
  const diff = diffFields(r.old, r.next, r.schema, r.scope);
  return runAtOnce(entriesAfterSteps(r, diff.changed, diff.removed, diff.present, !diff.changed.empty));
}

export interface CreateRecord extends Omit<UpdateRecord, "oldLeaves" | "newLeaves"> {
  /** Every field of the new object (object-fields.ts fieldSetOf). */
  readonly fields: FieldSet;
}

/** The entries after an Update operation that creates the object: its manager changed every field. */
export function* recordCreateSteps(r: CreateRecord): Steps<ManagedFieldsEntry[]> {
  return yield* entriesAfterSteps(r, r.fields, new FieldSet(), () => r.fields, !r.fields.empty);
}

type Recorded = Omit<UpdateRecord, "oldLeaves" | "newLeaves">;

/**
 * The entries once the manager changed `changedSet` and `removedSet` left the object: others lose
 * what it changed, every entry loses what was removed, its own entry is (mine ∪ changed) ∩ present.
 */
function* entriesAfterSteps(
  r: Recorded,
  changedSet: FieldSet,
  removedSet: FieldSet,
  present: () => FieldSet,
  anyChanged: boolean,
): Steps<ManagedFieldsEntry[]> {
  const isMine = (e: ManagedFieldsEntry) =>
    e.manager === r.manager &&
    e.operation === "Update" &&
    e.apiVersion === r.apiVersion &&
    e.subresource === r.subresource;
  let mine: ManagedFieldsEntry | undefined;
  const out: ManagedFieldsEntry[] = [];
  for (const e of r.entries) {
    if (isMine(e)) {
      mine = e;
      continue;
    }
    const kept = keptEntry(e, removedSet, changedSet);
    if (kept) out.push(kept);
  }
  const mineFields = mine
    ? mineAfter(mine.fieldsV1, changedSet, present)
    : changedSet.empty
      ? undefined
      : sharedFieldsV1(changedSet);
  yield;
  if (mineFields !== undefined) {
    const entry: ManagedFieldsEntry = {
      manager: r.manager,
      operation: "Update",
      apiVersion: r.apiVersion,
      time: anyChanged || !mine ? r.time : mine.time,
      fieldsType: "FieldsV1",
      fieldsV1: mineFields,
    };
    if (r.subresource) entry.subresource = r.subresource;
    out.push(entry);
  }
  return sortEntries(capUpdateManagers(out));
}

/**
 * The fieldsV1 of the manager's own entry: (mine ∪ changed) ∩ present, where changed ⊆ present, so
 * only the previous set needs the intersection; undefined when empty. An update that changes the
 * fields its manager already owns (the common repeated write) leaves the set as it was: then the
 * entry keeps its tree (when in upstream's encoding), which the store already shares, instead of a
 * new one the store would encode to JSON to find its shared copy (storage/shared-fields.ts).
 */
function mineAfter(
  fieldsV1: Record<string, unknown>,
  changed: FieldSet,
  present: () => FieldSet,
): Record<string, unknown> | undefined {
  const before = decodeFields(fieldsV1);
  const set = before.set.intersection(present()).union(changed);
  if (set.empty) return undefined;
  const same = set.difference(before.set).empty && before.set.difference(set).empty;
  return same && before.canonical ? fieldsV1 : sharedFieldsV1(set);
}

/**
 * Another manager's entry once `removed` and `changed` left it: undefined when nothing is left, the
 * entry itself when it lost nothing and its fieldsV1 is already in upstream's encoding.
 */
export function keptEntry(
  e: ManagedFieldsEntry,
  removed: FieldSet,
  changed: FieldSet,
): ManagedFieldsEntry | undefined {
  const decoded = decodeFields(e.fieldsV1);
  let set = decoded.set;
  if (set.intersects(removed)) set = set.difference(removed);
  if (set.intersects(changed)) set = set.difference(changed);
  if (set.empty) return undefined;
  return set === decoded.set && decoded.canonical ? e : { ...e, fieldsV1: sharedFieldsV1(set) };
}

function capUpdateManagers(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const updates = entries.filter((e) => e.operation === "Update");
  if (updates.length <= MAX_UPDATE_MANAGERS) return entries;
  const age = (e: ManagedFieldsEntry) => e.time ?? "";
  const byAge = [...updates].sort((a, b) => (age(a) < age(b) ? -1 : age(a) > age(b) ? 1 : 0));
  const fold = byAge.slice(0, updates.length - MAX_UPDATE_MANAGERS + 1);
  let set = new FieldSet();
  for (const e of fold) set = set.union(entrySet(e.fieldsV1));
  const newest = fold[fold.length - 1] as ManagedFieldsEntry;
  const ancient: ManagedFieldsEntry = {
    manager: ANCIENT,
    operation: "Update",
    apiVersion: newest.apiVersion,
    time: newest.time,
    fieldsType: "FieldsV1",
    fieldsV1: sharedFieldsV1(set),
  };
  return [...entries.filter((e) => !fold.includes(e)), ancient];
}

/** Apply before Update, then by time, manager, apiVersion. */
export function sortEntries(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return entries.sort(
    (a, b) =>
      (a.operation === b.operation ? 0 : a.operation === "Apply" ? -1 : 1) ||
      cmp(a.time ?? "", b.time ?? "") ||
      cmp(a.manager, b.manager) ||
      cmp(a.apiVersion, b.apiVersion),
  );
}
