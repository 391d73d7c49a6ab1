/**
 * The default class of a kind (StorageClass, IngressClass), as DefaultStorageClass and
 * DefaultIngressClass admission pick it: among the classes annotated as default with "true", the
 * newest, then the first by name among equally new ones.
 */
import type { AdmissionContext } from "../context.js";

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
export const recordAt = (v: unknown, key: string): Json => (isRecord(v) && isRecord(v[key]) ? v[key] : {});

/** The default class's name in `bucket`, or undefined when no class is annotated as default. */
export function defaultClassName(
  ctx: AdmissionContext,
  bucket: string,
  annotations: readonly string[],
): string | undefined {
  let best: { name: string; created: number } | undefined;
  for (const c of ctx.store.list(bucket).items as Json[]) {
    const meta = recordAt(c, "metadata");
    const own = recordAt(meta, "annotations");
    if (!annotations.some((k) => own[k] === "true")) continue;
    const name = String(meta.name ?? "");
    const created = Date.parse(String(meta.creationTimestamp ?? "")) || 0;
    if (!best || created > best.created || (created === best.created && name < best.name))
      best = { name, created };
  }
  return best?.name;
}
