/**
 * What decoding into Go's ObjectMeta does to a body's metadata, so that the stored object is the one
 * kube-apiserver would store: a null field is the field's zero value (gone, as every ObjectMeta field
 * is omitempty), a null label or annotation value is "", and empty maps and lists are gone.
 * Without this a `"labels": null` would be stored as sent and reach the label selector code.
 */
// managedFields is left alone: an empty list on an update asks for them to be reset.
const OMIT_WHEN_EMPTY = ["labels", "annotations", "ownerReferences", "finalizers"];

export function normalizeDecodedMetadata(meta: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(meta)) if (v === null) delete meta[k];
  for (const k of ["labels", "annotations"]) {
    const m = meta[k];
    if (typeof m !== "object" || m === null || Array.isArray(m)) continue;
    const entries = Object.entries(m as Record<string, unknown>);
    if (entries.some(([, v]) => v === null))
      meta[k] = Object.fromEntries(entries.map(([key, v]) => [key, v === null ? "" : v]));
  }
  for (const k of OMIT_WHEN_EMPTY) {
    const v = meta[k];
    if (Array.isArray(v) ? v.length === 0 : isEmptyMap(v)) delete meta[k];
  }
  return meta;
}

function isEmptyMap(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}
