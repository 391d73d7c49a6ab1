/**
 * Decoding request bodies for the verb handlers: an object for create and
 * update (JSON, YAML or protobuf), a patch for PATCH (by its content type),
 * DeleteOptions for the delete verbs. Big JSON and YAML bodies are decoded on a
 * worker thread (decode-pool.ts), small ones in-process; the result is the same.
 */
import type { IncomingMessage } from "node:http";
import { errors } from "../api/status.js";
import { readBody } from "./body.js";
import {
  type DecodedObject,
  type DecodedPatch,
  type DecodeTask,
  decodeObjectRequest,
  decodePatchRequest,
} from "./body-decode.js";
import { decodeObjectBody, decodeProtobufBody } from "./decode-object.js";
import { decodeOffThread } from "./decode-pool.js";
import { ACCEPTED_TYPES, bodyTypeOf } from "./negotiate.js";

export type { DecodedObject, DecodedPatch } from "./body-decode.js";

export const PATCH_TYPES: readonly string[] = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
];

/** The yaml library parses about this many times slower than JSON.parse: its bodies count this much more. */
const YAML_COST = 8;

/** Whether a body is big enough to decode off the event loop (protobuf stays in-process). */
function offThread(raw: Buffer, task: DecodeTask, threshold: number): boolean {
  if (task.type === "protobuf") return false;
  const yaml = task.type === "yaml" || task.type === "apply";
  return raw.length * (yaml ? YAML_COST : 1) >= threshold;
}

export async function readObject(
  req: IncomingMessage,
  limit: number,
  kindHint: string,
  offThreadBytes = Number.POSITIVE_INFINITY,
): Promise<DecodedObject> {
  const type = bodyTypeOf(req.headers["content-type"]);
  if (type !== "json" && type !== "yaml" && type !== "protobuf")
    throw errors.unsupportedMediaType(ACCEPTED_TYPES);
  const raw = await readBody(req, limit);
  const task: DecodeTask = { what: "object", type, kindHint };
  if (raw.length > 0 && offThread(raw, task, offThreadBytes))
    return { ...((await decodeOffThread(raw, task)) as DecodedObject), large: true };
  return decodeObjectRequest(raw, type, kindHint);
}

export async function readPatch(
  req: IncomingMessage,
  limit: number,
  offThreadBytes = Number.POSITIVE_INFINITY,
): Promise<DecodedPatch> {
  const patchType = bodyTypeOf(req.headers["content-type"]);
  const raw = await readBody(req, limit);
  if (patchType === undefined || patchType === "json" || patchType === "yaml" || patchType === "protobuf")
    throw errors.unsupportedMediaType(PATCH_TYPES);
  const task: DecodeTask = { what: "patch", type: patchType };
  if (offThread(raw, task, offThreadBytes))
    return { ...((await decodeOffThread(raw, task)) as DecodedPatch), large: true };
  return decodePatchRequest(raw, patchType);
}

/** The DeleteOptions body of a DELETE, if any. */
export async function readDeleteBody(
  req: IncomingMessage,
  limit: number,
): Promise<Record<string, unknown> | undefined> {
  const raw = await readBody(req, limit);
  if (raw.length === 0) return undefined;
  // client-go sends DeleteOptions as protobuf when it talks protobuf to built-in resources.
  if (bodyTypeOf(req.headers["content-type"]) === "protobuf") {
    const { apiVersion: _a, kind: _k, ...options } = decodeProtobufBody(raw, "DeleteOptions");
    return options;
  }
  return decodeObjectBody(raw, "json");
}
