/** The limit on the data of ConfigMaps and Secrets (upstream: 1 MiB), as upstream's validation reports it. */
import type { FieldError } from "../api/status.js";

type Obj = Record<string, unknown>;
const entries = (v: unknown): [string, unknown][] =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? Object.entries(v as Obj) : [];
const tooLong = (field: string, max: number): FieldError => ({
  type: "FieldValueTooLong",
  field,
  detail: `may not be more than ${max} bytes`,
});

function configMapSize(obj: Obj): number {
  let size = 0;
  for (const [, v] of entries(obj.data)) size += typeof v === "string" ? Buffer.byteLength(v) : 0;
  for (const [, v] of entries(obj.binaryData))
    size += typeof v === "string" ? Buffer.byteLength(v, "base64") : 0;
  return size;
}

function secretSize(obj: Obj): number {
  let size = 0;
  for (const [, v] of entries(obj.data)) size += typeof v === "string" ? Buffer.byteLength(v, "base64") : 0;
  for (const [, v] of entries(obj.stringData)) size += typeof v === "string" ? Buffer.byteLength(v) : 0;
  return size;
}

/** Upstream's data size errors of ConfigMaps and Secrets (none for other kinds). */
export function dataSizeErrors(r: { group: string; resource: string }, obj: Obj, max: number): FieldError[] {
  if (r.group !== "") return [];
  if (r.resource === "configmaps") return configMapSize(obj) > max ? [tooLong("[]", max)] : [];
  if (r.resource === "secrets") return secretSize(obj) > max ? [tooLong("data", max)] : [];
  return [];
}
