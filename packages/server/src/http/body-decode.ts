/**
 * The pure part of reading a request body: bytes to a decoded object or patch, with the 400s
 * upstream gives for bad input. Runs on the request's thread for small bodies and on a decode
 * worker (decode-pool.ts) for big ones; both give the same result.
 */
import { errors, StatusError } from "../api/status.js";
import { decodeApplyBody, decodeObjectBody, decodeProtobufBody } from "./decode-object.js";
import { findDuplicateFields } from "./duplicate-fields.js";
import { checkDepth } from "./limits.js";
import type { BodyType } from "./negotiate.js";
import { repeatsNoKey } from "./repeated-keys.js";

export interface DecodedObject {
  readonly body: Record<string, unknown>;
  /** Keys the body repeats (JSON.parse keeps the last), for fieldValidation. */
  readonly duplicateFields: string[];
  /** The body's text, kept only when it repeats keys: strict errors are then re-read from it in document order. */
  readonly repeatedKeysText?: string;
  /** Set when the body was big enough to decode off-thread: the handler pauses between its steps too. */
  readonly large?: boolean;
}

export interface DecodedPatch {
  readonly patchType: BodyType;
  readonly patch: unknown;
  /** Paths of repeated keys; for an apply patch, upstream's YAML messages (`line 8: key "a" already set in map`). */
  readonly duplicateFields: string[];
  readonly large?: boolean;
}

/** What to decode: an object body (create, update) or a patch, with its body type. */
export type DecodeTask =
  | { readonly what: "object"; readonly type: "json" | "yaml" | "protobuf"; readonly kindHint: string }
  | { readonly what: "patch"; readonly type: BodyType };

export function decodeObjectRequest(
  raw: Buffer,
  type: "json" | "yaml" | "protobuf",
  kindHint: string,
): DecodedObject {
  if (type !== "json") {
    const body = type === "protobuf" ? decodeProtobufBody(raw, kindHint) : decodeObjectBody(raw, type);
    return { body, duplicateFields: [] };
  }
  // The text is decoded once, for the parse and for the duplicate-key scan.
  const text = raw.toString("utf8");
  const body = decodeObjectBody(text, type);
  const duplicateFields = repeatsNoKey(text, body) ? [] : findDuplicateFields(text);
  return duplicateFields.length === 0
    ? { body, duplicateFields }
    : { body, duplicateFields, repeatedKeysText: text };
}

export function decodePatchRequest(raw: Buffer, patchType: BodyType): DecodedPatch {
  if (patchType === "apply") {
    const { body, duplicates } = decodeApplyBody(raw);
    return { patchType, patch: body, duplicateFields: duplicates };
  }
  let patch: unknown;
  try {
    patch = JSON.parse(raw.toString("utf8"));
  } catch (e) {
    if (e instanceof StatusError) throw e;
    throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
  }
  checkDepth(patch, "json");
  return { patchType, patch, duplicateFields: findDuplicateFields(raw.toString("utf8")) };
}

export function runDecodeTask(raw: Buffer, task: DecodeTask): DecodedObject | DecodedPatch {
  return task.what === "object"
    ? decodeObjectRequest(raw, task.type, task.kindHint)
    : decodePatchRequest(raw, task.type);
}
