/**
 * Stamping an object with the revision of its write, and measuring it for the size limit as it is
 * stamped (one JSON text for the limit, the response and JSON watch frames: object-text.ts).
 */
import { type ObjectText, ObjectTooLargeError, stampedBytes } from "./object-text.js";
import { shareManagedFields } from "./shared-fields.js";

type Stampable = { metadata: { resourceVersion?: string; [k: string]: unknown }; [k: string]: unknown };

/** A stamped object with its JSON text. */
export interface Measured<T> {
  readonly stamped: T;
  readonly text: ObjectText;
}

/** The object as stored at `rev`: its resourceVersion set, its managed fields' sets shared (shared-fields.ts). */
export function stamp<T extends Stampable>(obj: T, rev: number): T {
  const metadata: Stampable["metadata"] = { ...obj.metadata, resourceVersion: String(rev) };
  if (metadata.managedFields !== undefined)
    metadata.managedFields = shareManagedFields(metadata.managedFields);
  return { ...obj, metadata };
}

/**
 * The object stamped for `rev` and its JSON text; ObjectTooLargeError when the object as written
 * (the text without the bytes the stamp adds) is longer than `maxBytes`.
 */
export function stampWithin<T extends Stampable>(obj: T, rev: number, maxBytes: number): Measured<T> {
  const stamped = stamp(obj, rev);
  const text = JSON.stringify(stamped);
  const bytes = Buffer.byteLength(text);
  const written = bytes - stampedBytes(obj.metadata, rev);
  if (written > maxBytes) throw new ObjectTooLargeError(written, maxBytes);
  return { stamped, text: { text, bytes } };
}
