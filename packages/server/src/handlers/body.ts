/** Decoding request bodies (JSON or YAML) into a single object, with upstream-like 400s. */
import { decodeObject, WireError } from "@kubesdk/models";
import YAML from "yaml";
import { errors } from "../api/status.js";
import type { BodyType } from "../http/negotiate.js";

export function decodeObjectBody(raw: Buffer, type: BodyType): Record<string, unknown> {
  if (raw.length === 0) throw errors.badRequest("the request body is empty");
  let value: unknown;
  const text = raw.toString("utf8");
  try {
    value =
      type === "yaml" || type === "apply"
        ? YAML.parse(text, { strict: true, uniqueKeys: true })
        : JSON.parse(text);
  } catch (e) {
    const what = type === "yaml" || type === "apply" ? "yaml" : "json";
    throw errors.badRequest(
      `couldn't decode the request body: ${what} parse error: ${(e as Error).message.split("\n")[0]}`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw errors.badRequest("couldn't decode the request body: the body must be a single object");
  return value as Record<string, unknown>;
}

/** A protobuf request body (`k8s\0` envelope) decoded into the object JSON would give; errors worded as upstream's. */
export function decodeProtobufBody(raw: Buffer, kind: string): Record<string, unknown> {
  if (raw.length === 0) throw errors.badRequest("the request body is empty");
  try {
    return decodeObject(raw) as Record<string, unknown>;
  } catch (e) {
    if (!(e instanceof WireError)) throw e;
    const why =
      e.code === "PROTOBUF_MAGIC"
        ? `provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (${raw.subarray(0, 256).toString("utf8")})`
        : e.message;
    throw errors.badRequest(`the object provided is unrecognized (must be of type ${kind}): ${why}`);
  }
}
