/**
 * The JSON text of a just-committed object, made once. A create or update measures its object's
 * JSON for the size limit; the same text, taken of the stamped object, is what the response and a
 * JSON watch frame of that object say, so they reuse it instead of encoding the object again.
 * Only the last few commits are kept: a text per stored object would double what the store holds
 * (the list cache keeps items' texts of its own, in the list form without kind and apiVersion).
 */
import { KubesdkError } from "@kubesdk/models";
import { FifoQueue } from "../api/fifo-queue.js";

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
 * Kept: the texts of recent commits, within a byte budget (the newest is always kept). Responses
 * being written need only the last few (commits overlap with at most the server's concurrent
 * writes); a watch that starts from a recent resourceVersion is replayed those commits' events, and
 * their frames are the texts, framed (the hub's frame log copies each as bytes when it is dispatched,
 * watch/frame-log.ts), so a replay of the last thousands of writes does not encode each object again
 * (4 MiB: about 6,000 ConfigMaps of the bench's size). Older texts
 * are made again if asked for. A text per stored object would double what the store holds (the list
 * cache keeps items' texts of its own, in the list form without kind and apiVersion).
 */
export const KEPT_TEXTS = 16_384;
export const KEPT_TEXT_BYTES = 4 << 20;

/**
 * The kept texts by object. An object is one store's alone, so one table serves every store of the
 * process (a response or a frame finds its object's text without knowing the store); each store's
 * KeptTexts bounds and evicts its own, so one server's writes never push out another's texts.
 */
const texts = new WeakMap<object, ObjectText>();

/** One store's kept texts: their order (api/fifo-queue.ts says why not a Map's) and bytes. */
export class KeptTexts {
  private readonly order = new FifoQueue<object>();
  private bytes = 0;

  /** Records the text of a committed object (it is never changed after the commit). */
  remember(obj: object, text: ObjectText): void {
    if (texts.has(obj)) return;
    texts.set(obj, text);
    this.order.push(obj);
    this.bytes += text.bytes;
    while (this.order.size > KEPT_TEXTS || (this.bytes > KEPT_TEXT_BYTES && this.order.size > 1)) {
      const old = this.order.shift() as object;
      this.bytes -= (texts.get(old) as ObjectText).bytes;
      texts.delete(old);
    }
  }
}

/** The text of a recently committed object, if it was measured. */
export function committedText(obj: unknown): ObjectText | undefined {
  return typeof obj === "object" && obj !== null ? texts.get(obj) : undefined;
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
