/**
 * Decoding request bodies for the verb handlers: an object for create and
 * update (JSON, YAML or protobuf), a patch for PATCH (by its content type),
 * DeleteOptions for the delete verbs.
 */
import type { IncomingMessage } from "node:http";
import { errors, StatusError } from "../api/status.js";
import { decodeObjectBody, decodeProtobufBody } from "../handlers/body.js";
import { findDuplicateFields } from "../openapi/duplicate-fields.js";
import { readBody } from "./body.js";
import { checkDepth } from "./limits.js";
import { ACCEPTED_TYPES, type BodyType, bodyTypeOf } from "./negotiate.js";

export interface DecodedObject {
  readonly body: Record<string, unknown>;
  /** Keys the body repeats (JSON.parse keeps the last), for fieldValidation. */
  readonly duplicateFields: string[];
}

export interface DecodedPatch {
  readonly patchType: BodyType;
  readonly patch: unknown;
  readonly duplicateFields: string[];
}

export const PATCH_TYPES: readonly string[] = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
];

export async function readObject(
  req: IncomingMessage,
  limit: number,
  kindHint: string,
): Promise<DecodedObject> {
  const type = bodyTypeOf(req.headers["content-type"]);
  if (type !== "json" && type !== "yaml" && type !== "protobuf")
    throw errors.unsupportedMediaType(ACCEPTED_TYPES);
  const raw = await readBody(req, limit);
  const body = type === "protobuf" ? decodeProtobufBody(raw, kindHint) : decodeObjectBody(raw, type);
  return { body, duplicateFields: type === "json" ? findDuplicateFields(raw.toString("utf8")) : [] };
}

export async function readPatch(req: IncomingMessage, limit: number): Promise<DecodedPatch> {
  const patchType = bodyTypeOf(req.headers["content-type"]);
  const raw = await readBody(req, limit);
  if (patchType === undefined || patchType === "json" || patchType === "yaml" || patchType === "protobuf")
    throw errors.unsupportedMediaType(PATCH_TYPES);
  let patch: unknown;
  try {
    patch = patchType === "apply" ? decodeObjectBody(raw, "apply") : JSON.parse(raw.toString("utf8"));
  } catch (e) {
    if (e instanceof StatusError) throw e;
    throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
  }
  checkDepth(patch, "json");
  const duplicateFields = patchType === "apply" ? [] : findDuplicateFields(raw.toString("utf8"));
  return { patchType, patch, duplicateFields };
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
