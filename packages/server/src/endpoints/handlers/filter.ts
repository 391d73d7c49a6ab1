/** Turns labelSelector/fieldSelector query parameters into one object predicate. */
import { type FieldRequirement, matchesFields, parseFieldSelector } from "../../api/field-selector.js";
import {
  type LabelRequirement,
  matchesLabels,
  parseLabelSelector,
  SelectorParseError,
} from "../../api/label-selector.js";
import { errors } from "../../api/status.js";
import type { ServedResource } from "../../resources/served.js";
import type { StoredObject } from "../../storage/mvcc.js";
import { metadataOf } from "./context.js";

export interface ObjectFilter {
  readonly labels: readonly LabelRequirement[];
  readonly fields: readonly FieldRequirement[];
  /** True when no selector was given (upstream then reports remainingItemCount). */
  readonly empty: boolean;
  readonly matches: (obj: StoredObject) => boolean;
}

/** Values of the field labels a resource supports, read from an object. */
export function fieldValues(r: ServedResource, stored: StoredObject): Map<string, string> {
  // Labels name the fields of the served shape (events.k8s.io events are stored as core events).
  const obj = r.convert ? r.convert.fromStored(stored) : stored;
  const meta = metadataOf(obj);
  const out = new Map<string, string>();
  out.set("metadata.name", String(meta.name ?? ""));
  if (r.namespaced) out.set("metadata.namespace", String(meta.namespace ?? ""));
  for (const path of r.fieldLabels) {
    let cur: unknown = obj;
    for (const seg of (r.fieldLabelPaths?.[path] ?? path).split("."))
      cur = (cur as Record<string, unknown> | undefined)?.[seg];
    out.set(
      path,
      cur === undefined || cur === null
        ? (r.fieldLabelZeros?.[path] ?? "")
        : typeof cur === "object"
          ? JSON.stringify(cur)
          : String(cur),
    );
  }
  return out;
}

export function buildFilter(r: ServedResource, query: URLSearchParams): ObjectFilter {
  let labels: readonly LabelRequirement[];
  let fields: readonly FieldRequirement[];
  try {
    labels = parseLabelSelector(query.get("labelSelector") ?? "");
    fields = parseFieldSelector(query.get("fieldSelector") ?? "");
  } catch (e) {
    if (e instanceof SelectorParseError) throw errors.badRequest(e.message);
    throw e;
  }
  const supported = new Set([
    "metadata.name",
    ...(r.namespaced ? ["metadata.namespace"] : []),
    ...r.fieldLabels,
  ]);
  for (const f of fields)
    if (!supported.has(f.field)) throw errors.badRequest(`field label not supported: ${f.field}`);
  const empty = labels.length === 0 && fields.length === 0;
  const matches = (obj: StoredObject) =>
    matchesLabels(labels, metadataOf(obj).labels as Record<string, string> | undefined) &&
    (fields.length === 0 || matchesFields(fields, fieldValues(r, obj)));
  return { labels, fields, empty, matches };
}
