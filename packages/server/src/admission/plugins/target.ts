/** Shared reading helpers of the plugins that act on one kind's main resource. */
import type { AdmissionAttributes } from "../attributes.js";

export type Json = Record<string, unknown>;

export const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
export const recordAt = (v: unknown, key: string): Json => (isRecord(v) && isRecord(v[key]) ? v[key] : {});

/** The request's object when it is `group`/`resource` itself (no subresource), else undefined. */
export function objectOf(a: AdmissionAttributes, group: string, resource: string): Json | undefined {
  if (a.subresource !== "" || a.resource.group !== group || a.resource.resource !== resource)
    return undefined;
  return isRecord(a.object) ? a.object : undefined;
}
