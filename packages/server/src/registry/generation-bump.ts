/**
 * A kind whose generation also counts changes of one metadata map (upstream's PrepareForUpdate of
 * EndpointSlices: labels; of Deployments: annotations, which the controller copies to the
 * ReplicaSets). The write path adds one for a spec change on its own (commit-update.ts); this adds
 * the same one, not a second, when only that map changed. Not for /status writes.
 */
import { type Json, obj, sameValue } from "../validation/field-errors.js";
import type { WriteStrategy } from "./strategy.js";

export function generationCounts(key: "labels" | "annotations"): WriteStrategy["prepareUpdate"] {
  return (next, old, subresource) => {
    if (subresource !== undefined) return;
    const map = (o: Json) => obj(o.metadata)[key];
    if (sameValue(map(next), map(old))) return;
    const generation = Number(obj(old.metadata).generation ?? 0) + 1;
    next.metadata = { ...obj(next.metadata), generation };
  };
}
