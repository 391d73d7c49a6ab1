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

/**
 * UTF-8 size of the strings in a map, counted in batches (a call per value costs more than the
 * counting); a newline after each value keeps surrogate halves of neighbours from pairing up.
 */
function utf8Size(map: unknown): number {
  let size = 0;
  let batch = "";
  let count = 0;
  const flush = () => {
    size += Buffer.byteLength(batch) - count;
    batch = "";
    count = 0;
  };
  for (const [, v] of entries(map)) {
    if (typeof v !== "string") continue;
    batch += `${v}\n`;
    count++;
    if (batch.length > 65536) flush();
  }
  flush();
  return size;
}

function configMapSize(obj: Obj): number {
  let size = utf8Size(obj.data);
  for (const [, v] of entries(obj.binaryData))
    size += typeof v === "string" ? Buffer.byteLength(v, "base64") : 0;
  return size;
}

function secretSize(obj: Obj): number {
  let size = 0;
  for (const [, v] of entries(obj.data)) size += typeof v === "string" ? Buffer.byteLength(v, "base64") : 0;
  size += utf8Size(obj.stringData);
  return size;
}

/** Upstream's data size errors of ConfigMaps and Secrets (none for other kinds). */
export function dataSizeErrors(r: { group: string; resource: string }, obj: Obj, max: number): FieldError[] {
  if (r.group !== "") return [];
  if (r.resource === "configmaps") return configMapSize(obj) > max ? [tooLong("[]", max)] : [];
  if (r.resource === "secrets") return secretSize(obj) > max ? [tooLong("data", max)] : [];
  return [];
}
