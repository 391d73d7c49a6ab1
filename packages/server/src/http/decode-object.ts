/** Decoding request bodies (JSON or YAML) into a single object, with upstream-like 400s. */
import { decodeObject, WireError } from "@kubesdk/models";
import YAML, { isMap, isScalar, LineCounter, visit } from "yaml";
import { errors } from "../api/status.js";
import { findDuplicateFields } from "./duplicate-fields.js";
import { checkDepth, MAX_DEPTH } from "./limits.js";
import type { BodyType } from "./negotiate.js";

/**
 * Visits every map of a YAML document, calling `onDuplicate` for a key its map already has. The yaml
 * library's own check compares every key with every other (quadratic: a 40k-key ConfigMap took
 * seconds); this one uses a set per map.
 */
function checkMapKeys(doc: YAML.Document, onDuplicate: (key: string, offset: number) => void): void {
  visit(doc, {
    Map(_key, node) {
      if (!isMap(node)) return;
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        // JSON has string keys only (upstream: "invalid map key"); the yaml library would stringify them.
        if (pair.key !== null && !isScalar(pair.key))
          throw new Error("invalid map key: a key must be a scalar");
        const k = isScalar(pair.key) ? pair.key.value : JSON.stringify(pair.key);
        if (seen.has(k)) onDuplicate(String(k), isScalar(pair.key) ? (pair.key.range?.[0] ?? 0) : 0);
        seen.add(k);
      }
    },
  });
}

/** YAML with duplicate keys rejected. */
export function parseYaml(text: string): unknown {
  const doc = YAML.parseDocument(text, { strict: true, uniqueKeys: false });
  if (doc.errors.length > 0) throw doc.errors[0];
  checkMapKeys(doc, (k) => {
    throw new Error(`map keys must be unique: ${JSON.stringify(k)}`);
  });
  return doc.toJS({ maxAliasCount: 100 });
}

/**
 * An apply patch's YAML: duplicate keys are kept (the last wins) and reported in upstream's words,
 * `line 8: key "foo" already set in map`, for fieldValidation to refuse (Strict) or warn about.
 */
export function parseApplyYaml(text: string): { value: unknown; duplicates: string[] } {
  const json = plainJsonDocument(text);
  if (json !== undefined) return { value: json, duplicates: [] };
  const lineCounter = new LineCounter();
  const doc = YAML.parseDocument(text, { strict: true, uniqueKeys: false, lineCounter });
  if (doc.errors.length > 0) throw doc.errors[0];
  const duplicates: string[] = [];
  checkMapKeys(doc, (k, offset) => {
    duplicates.push(`line ${lineCounter.linePos(offset).line}: key ${JSON.stringify(k)} already set in map`);
  });
  return { value: doc.toJS({ maxAliasCount: 100 }), duplicates };
}

/**
 * Most apply patches are JSON, which is YAML too, and JSON.parse reads it ~10× faster than the
 * yaml library. The answer is the same for a JSON object whose text has nothing YAML reads
 * differently or refuses: no duplicate key (reported with YAML line numbers, so left to the YAML
 * path), no tab or C1/line-separator character, no key split from its colon by a line break, no
 * key near YAML's 1024-character limit for implicit keys. Anything else takes the YAML path.
 */
function plainJsonDocument(text: string): unknown {
  if (!/^\s*\{/.test(text) || YAML_SENSITIVE.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (longKey(value, 0) || findDuplicateFields(text).length > 0) return undefined;
  return value;
}

const YAML_SENSITIVE = /[\t\u007f-\u009f\u2028\u2029\ufeff]|"[ \r\n]*[\r\n][ \r\n]*:/;
const LONG_KEY = 1000;

/** Whether any key of the JSON value is too long for a YAML implicit key (bounded depth: checkDepth runs later). */
function longKey(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null || depth > 200) return depth > 200;
  if (Array.isArray(value)) return value.some((item) => longKey(item, depth + 1));
  for (const [k, v] of Object.entries(value)) if (k.length > LONG_KEY || longKey(v, depth + 1)) return true;
  return false;
}

/** An object body, from its bytes or from their text when the caller decoded them already. */
export function decodeObjectBody(raw: Buffer | string, type: BodyType): Record<string, unknown> {
  return decodeBody(raw, type, (text) => (type === "yaml" ? parseYaml(text) : JSON.parse(text)));
}

/** An apply patch, with its duplicate keys (see parseApplyYaml). */
export function decodeApplyBody(raw: Buffer): { body: Record<string, unknown>; duplicates: string[] } {
  let duplicates: string[] = [];
  const body = decodeBody(raw, "apply", (text) => {
    const parsed = parseApplyYaml(text);
    duplicates = parsed.duplicates;
    return parsed.value;
  });
  return { body, duplicates };
}

function decodeBody(
  raw: Buffer | string,
  type: BodyType,
  parse: (text: string) => unknown,
): Record<string, unknown> {
  if (raw.length === 0) throw errors.badRequest("the request body is empty");
  let value: unknown;
  const text = typeof raw === "string" ? raw : raw.toString("utf8");
  const what = type === "yaml" || type === "apply" ? "yaml" : "json";
  try {
    value = parse(text);
  } catch (e) {
    const why = e instanceof RangeError ? "exceeded max depth" : (e as Error).message.split("\n")[0];
    throw errors.badRequest(`couldn't decode the request body: ${what} parse error: ${why}`);
  }
  // JSON needs two characters per level of nesting: a shorter text cannot reach the limit.
  if (type !== "json" || text.length >= 2 * MAX_DEPTH) checkDepth(value, what);
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
