/** Decoding request bodies (JSON or YAML) into a single object, with upstream-like 400s. */
import { decodeObject, WireError } from "@kubesdk/models";
import YAML, { isMap, isScalar, visit } from "yaml";
import { errors } from "../api/status.js";
import { checkDepth } from "./limits.js";
import type { BodyType } from "./negotiate.js";

/**
 * YAML with duplicate keys rejected. The yaml library's own check compares every key with every
 * other (quadratic: a 40k-key ConfigMap took seconds); this one uses a set per map.
 */
export function parseYaml(text: string): unknown {
  const doc = YAML.parseDocument(text, { strict: true, uniqueKeys: false });
  if (doc.errors.length > 0) throw doc.errors[0];
  visit(doc, {
    Map(_key, node) {
      if (!isMap(node)) return;
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        // JSON has string keys only (upstream: "invalid map key"); the yaml library would stringify them.
        if (pair.key !== null && !isScalar(pair.key))
          throw new Error("invalid map key: a key must be a scalar");
        const k = isScalar(pair.key) ? pair.key.value : JSON.stringify(pair.key);
        if (seen.has(k)) throw new Error(`map keys must be unique: ${JSON.stringify(String(k))}`);
        seen.add(k);
      }
    },
  });
  return doc.toJS({ maxAliasCount: 100 });
}

export function decodeObjectBody(raw: Buffer, type: BodyType): Record<string, unknown> {
  if (raw.length === 0) throw errors.badRequest("the request body is empty");
  let value: unknown;
  const text = raw.toString("utf8");
  const what = type === "yaml" || type === "apply" ? "yaml" : "json";
  try {
    value = what === "yaml" ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    const why = e instanceof RangeError ? "exceeded max depth" : (e as Error).message.split("\n")[0];
    throw errors.badRequest(`couldn't decode the request body: ${what} parse error: ${why}`);
  }
  checkDepth(value, what);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw errors.badRequest("couldn't decode the request body: the body must be a single object");
  return value as Record<string, unknown>;
}

/** A protobuf request body (`k8s\0` envelope) decoded into the object JSON would give; errors worded as upstream's. */
export function decodeProtobufBody(raw: Buffer, kind: string): Record<string, unknown> {
  if (raw.length === 0) throw errors.badRequest("the request body is empty");
  let value: Record<string, unknown>;
  try {
    value = decodeObject(raw) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof RangeError)
      throw errors.badRequest(
        `the object provided is unrecognized (must be of type ${kind}): exceeded max depth`,
      );
    if (!(e instanceof WireError)) throw e;
    const why =
      e.code === "PROTOBUF_MAGIC"
        ? `provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (${raw.subarray(0, 256).toString("utf8")})`
        : e.message;
    throw errors.badRequest(`the object provided is unrecognized (must be of type ${kind}): ${why}`);
  }
  checkDepth(value, "json");
  return value;
}
