/**
 * The status the apiserver's CRD controllers maintain: accepted names
 * (requested names that no other CRD of the group has claimed), the
 * NamesAccepted condition, and Established once the names were accepted.
 * A pure function of the CRD and its group's other CRDs.
 */
import { nowTimestamp } from "../api/names.js";
import { type CrdNames, namesOf, specOf, str, strList } from "./crd-view.js";
import { isObject } from "./json-schema.js";

interface Condition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

export interface DesiredStatus {
  readonly status: Record<string, unknown>;
  /** True when the names are accepted, i.e. the resources may be served. */
  readonly accepted: boolean;
}

function statusOf(crd: unknown): Record<string, unknown> {
  const s = (crd as { status?: unknown } | null)?.status;
  return isObject(s) ? s : {};
}

function acceptedNamesOf(crd: unknown): Partial<CrdNames> {
  const a = statusOf(crd).acceptedNames;
  return isObject(a) ? (a as Partial<CrdNames>) : {};
}

function conditionsOf(crd: unknown): Condition[] {
  const c = statusOf(crd).conditions;
  return Array.isArray(c) ? (c.filter(isObject) as unknown as Condition[]) : [];
}

type Conflict = { reason: string; message: string };

/** Names the other CRDs of the group have accepted: resource names and kind names. */
function namesInUse(others: readonly unknown[]): { resources: Set<string>; kinds: Set<string> } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const o of others) {
    const a = acceptedNamesOf(o);
    for (const n of [str(a.plural), str(a.singular), ...strList(a.shortNames)]) if (n) resources.add(n);
    for (const n of [str(a.kind), str(a.listKind)]) if (n) kinds.add(n);
  }
  return { resources, kinds };
}

/** The names this CRD may accept now, and the last conflict found (upstream reports one). */
function acceptNames(
  crd: unknown,
  others: readonly unknown[],
): { next: Record<string, unknown>; conflict?: Conflict } {
  const { resources, kinds } = namesInUse(others);
  const requested = namesOf(crd);
  const accepted = acceptedNamesOf(crd);
  const next: Record<string, unknown> = {
    ...accepted,
    plural: str(accepted.plural),
    kind: str(accepted.kind),
  };
  let conflict: Conflict | undefined;
  const take = (field: keyof CrdNames, used: Set<string>, reason: string) => {
    const want = str(requested[field]);
    if (want === str(accepted[field]) || !used.has(want)) next[field] = want;
    else conflict = { reason, message: `"${want}" is already in use` };
  };
  take("plural", resources, "PluralConflict");
  take("singular", resources, "SingularConflict");
  const shortNames = strList(requested.shortNames);
  const own = new Set(strList(accepted.shortNames));
  const taken = shortNames.filter((s) => !own.has(s) && resources.has(s));
  if (taken.length > 0)
    conflict = {
      reason: "ShortNamesConflict",
      message: taken.map((s) => `"${s}" is already in use`).join(", "),
    };
  else if (shortNames.length > 0) next.shortNames = shortNames;
  else delete next.shortNames;
  take("kind", kinds, "KindConflict");
  take("listKind", kinds, "ListKindConflict");
  const categories = strList(requested.categories);
  if (categories.length > 0) next.categories = categories;
  else delete next.categories;
  return conflict ? { next, conflict } : { next };
}

const ESTABLISHED: Condition = {
  type: "Established",
  status: "True",
  reason: "InitialNamesAccepted",
  message: "the initial names have been accepted",
};
const NOT_ESTABLISHED: Condition = {
  type: "Established",
  status: "False",
  reason: "NotAccepted",
  message: "not all names are accepted",
};

/** `others`: every other CRD of the same group (their accepted names are taken). */
export function desiredStatus(crd: unknown, others: readonly unknown[], now: number): DesiredStatus {
  const { next, conflict } = acceptNames(crd, others);
  const namesAccepted: Condition = conflict
    ? { type: "NamesAccepted", status: "False", ...conflict }
    : { type: "NamesAccepted", status: "True", reason: "NoConflicts", message: "no conflicts found" };
  const previous = conditionsOf(crd).find((c) => c.type === "Established");
  const established = previous?.status === "True" ? previous : conflict ? NOT_ESTABLISHED : ESTABLISHED;
  const conditions = mergeConditions(conditionsOf(crd), [namesAccepted, established], nowTimestamp(now));
  return {
    // Key order as upstream serialises CustomResourceDefinitionStatus.
    status: { conditions, acceptedNames: orderNames(next), ...withoutKnown(statusOf(crd)) },
    accepted: conflict === undefined || previous?.status === "True",
  };
}

function withoutKnown(status: Record<string, unknown>): Record<string, unknown> {
  const { conditions: _c, acceptedNames: _a, ...rest } = status;
  return rest;
}

/** Replaces conditions by type, keeping lastTransitionTime when the status did not change. */
function mergeConditions(current: Condition[], updates: Condition[], now: string): Condition[] {
  const out = [...current];
  for (const u of updates) {
    const i = out.findIndex((c) => c.type === u.type);
    const old = i >= 0 ? out[i] : undefined;
    const merged: Condition = {
      type: u.type,
      status: u.status,
      lastTransitionTime:
        old && old.status === u.status && old.lastTransitionTime ? old.lastTransitionTime : now,
      reason: u.reason,
      message: u.message,
    };
    if (i >= 0) out[i] = merged;
    else out.push(merged);
  }
  return out;
}

/** Key order of CustomResourceDefinitionNames as upstream serialises it. */
function orderNames(n: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ["plural", "singular", "shortNames", "kind", "listKind", "categories"])
    if (n[k] !== undefined && !(k === "singular" && n[k] === "") && !(k === "listKind" && n[k] === ""))
      out[k] = n[k];
  return out;
}

export function groupOf(crd: unknown): string {
  return str(specOf(crd).group);
}
