/**
 * The JSON text of a just-committed object, made once. A create or update measures its object's
 * JSON for the size limit; the same text, taken of the stamped object, is what the response and a
 * JSON watch frame of that object say, so they reuse it instead of encoding the object again.
 * Only the last few commits are kept: a text per stored object would double what the store holds
 * (the list cache keeps items' texts of its own, in the list form without kind and apiVersion).
 */
import { KubesdkError } from "@kubesdk/models";

/** Thrown by a write whose object's JSON, without its resourceVersion, is longer than the limit. */
export class ObjectTooLargeError extends KubesdkError {
  readonly code = "TOO_LARGE" as const;
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`object of ${bytes} bytes exceeds ${limit}`);
  }
}

export interface ObjectText {
  /** `JSON.stringify` of the object, compact. */
  readonly text: string;
  /** Its length in UTF-8 bytes. */
  readonly bytes: number;
}

/**
 * Commits overlap with responses being written by at most the server's concurrent writes; texts
 * of older commits are made again if asked for (rare: a response whose write waited that long).
 * The bytes are bounded too, so a burst of large objects (up to the 1.5 MiB limit each) does not
 * hold 64 of them; the newest is always kept.
 */
const KEPT = 64;
export const KEPT_TEXT_BYTES = 4 << 20;
const recent = new Map<object, ObjectText>();
let keptBytes = 0;

/** Records the text of a committed object (it is never changed after the commit). */
export function rememberText(obj: object, text: ObjectText): void {
  recent.set(obj, text);
  keptBytes += text.bytes;
  while (recent.size > KEPT || (keptBytes > KEPT_TEXT_BYTES && recent.size > 1)) {
    const [oldest, old] = recent.entries().next().value as [object, ObjectText];
    recent.delete(oldest);
    keptBytes -= old.bytes;
  }
}

/** The text of a recently committed object, if it was measured. */
export function committedText(obj: unknown): ObjectText | undefined {
  return typeof obj === "object" && obj !== null ? recent.get(obj) : undefined;
}

/**
 * The UTF-8 bytes that stamping `rev` adds to the JSON of an object with this metadata: the size
 * limit counts the object as written, without the store's resourceVersion (etcd keeps the revision
 * outside the value), so the stamped text's length minus this is the written object's. Exact for
 * decoded JSON: the stamp replaces a resourceVersion member in place or appends one.
 */
export function stampedBytes(metadata: Record<string, unknown>, rev: number): number {
  const value = 2 + String(rev).length;
  const before =
    metadata.resourceVersion === undefined ? undefined : JSON.stringify(metadata.resourceVersion);
  if (before !== undefined) return value - Buffer.byteLength(before);
  // A new member: its key, colon and value, and a comma unless it is the only member.
  return '"resourceVersion":'.length + value + (hasOtherMembers(metadata) ? 1 : 0);
}

function hasOtherMembers(metadata: Record<string, unknown>): boolean {
  for (const k in metadata) {
    if (k === "resourceVersion") continue;
    const v = metadata[k];
    if (v !== undefined && typeof v !== "function" && typeof v !== "symbol") return true;
  }
  return false;
}
