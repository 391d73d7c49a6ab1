/** Upstream's 1 MiB limit on the data of ConfigMaps and Secrets, as their validation reports it. */
import type { FieldError } from "../api/status.js";
import { MAX_DATA_BYTES } from "../http/limits.js";
import type { WriteStrategy } from "./served.js";

type Obj = Record<string, unknown>;
const entries = (v: unknown): [string, unknown][] =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? Object.entries(v as Obj) : [];
const tooLong = (field: string): FieldError => ({
  type: "FieldValueTooLong",
  field,
  detail: `may not be more than ${MAX_DATA_BYTES} bytes`,
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

export const configMapStrategy: WriteStrategy = {
  validate: (obj) => (configMapSize(obj) > MAX_DATA_BYTES ? [tooLong("[]")] : []),
};

export const secretStrategy: WriteStrategy = {
  validate: (obj) => (secretSize(obj) > MAX_DATA_BYTES ? [tooLong("data")] : []),
};
