import { readFile } from "node:fs/promises";
import { KubeconfigError, type KubeconfigErrorCode } from "./errors.js";
import { type EntryOrigin, entryFieldPath } from "./model.js";

type List = "clusters" | "users" | "contexts";

/** An error about one field of a merged entry, naming the file and position it came from. */
export function entryError(
  code: KubeconfigErrorCode,
  list: List,
  origin: EntryOrigin,
  key: string,
  problem: string,
  cause?: unknown,
): KubeconfigError {
  return new KubeconfigError(code, problem, {
    file: origin.file,
    fieldPath: entryFieldPath(list, origin, key),
    cause,
  });
}

/** Reads a file named by a kubeconfig field (certificate, key); a failure names the field and path. */
export async function readReferencedFile(
  list: List,
  origin: EntryOrigin,
  key: string,
  path: string,
): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    throw entryError("KUBECONFIG_UNREADABLE", list, origin, key, `cannot read ${path} (${code})`, err);
  }
}

/** Decodes a `*-data` field (validated as base64 when parsed). */
export function decodeBase64(data: string): Buffer {
  return Buffer.from(data, "base64");
}
