/** JSON values of scalar proto types, and the byte helpers the special types share. */
import { goOrderedJson, holdsReorderedObject } from "./embedded-json.js";
import { WireError } from "./errors.js";
import { int64FromJson } from "./int64.js";

function bytesOf(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** Parses JSON bytes embedded in a message (FieldsV1, RawExtension, apiextensions JSON). */
export function parseEmbeddedJson(bytes: Uint8Array): unknown {
  const text = bytesOf(bytes).toString("utf8");
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new WireError("PROTOBUF_VALUE", `embedded bytes are not JSON (${preview(text)})`, { cause });
  }
}

/**
 * The JSON text of a value embedded in a message, as Go holds it after reading its own JSON:
 * encoding/json writes embedded JSON with <, >, &, U+2028 and U+2029 escaped.
 */
export function jsonText(value: unknown): string {
  let text: string;
  try {
    // JSON.stringify, unless JavaScript reordered an object's keys (embedded-json.ts).
    text = (holdsReorderedObject(value) ? goOrderedJson(value) : JSON.stringify(value)) as string;
  } catch (cause) {
    // A RangeError: nested too deeply for the stack (cycles are not JSON values anyway).
    const code = cause instanceof RangeError ? "PROTOBUF_DEPTH" : "PROTOBUF_VALUE";
    throw new WireError(code, `cannot write embedded JSON: ${(cause as Error).message}`, { cause });
  }
  return text.replace(/[<>&\u2028\u2029]/g, goEscape);
}

function goEscape(char: string): string {
  return `\\u${(char.codePointAt(0) as number).toString(16).padStart(4, "0")}`;
}

const int32Range = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const uint32Range = { min: 0, max: 2 ** 32 - 1 };
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The value to write for a JSON value of a scalar proto type; throws on a mismatch. */
export function scalarFromJson(type: string, value: unknown): unknown {
  switch (type) {
    case "string":
      // Go's JSON decoding reads a lone surrogate as U+FFFD (written as is, it would be CESU-8).
      if (typeof value === "string") return wellFormed(value);
      break;
    case "bool":
      if (typeof value === "boolean") return value;
      break;
    case "double":
    case "float":
      if (typeof value === "number" && Number.isFinite(value)) return value;
      break;
    case "int32":
    case "sint32":
    case "sfixed32":
      return integerIn(value, int32Range, type);
    case "uint32":
    case "fixed32":
      return integerIn(value, uint32Range, type);
    case "int64":
    case "uint64":
    case "sint64":
    case "fixed64":
    case "sfixed64":
      return int64FromJson(value, type);
    case "bytes":
      // Go's encoding/json reads []byte as padded standard base64, skipping \r and \n.
      if (typeof value === "string") {
        const text = value.replace(/[\r\n]/g, "");
        if (base64.test(text)) return Buffer.from(text, "base64");
      }
      throw new WireError("PROTOBUF_VALUE", `expected base64 bytes, got ${describe(value)}`);
  }
  throw new WireError("PROTOBUF_VALUE", `expected ${jsonTypeOf(type)}, got ${describe(value)}`);
}

function integerIn(value: unknown, range: { min: number; max: number }, type: string): number {
  if (Number.isInteger(value) && (value as number) >= range.min && (value as number) <= range.max) {
    return value as number;
  }
  throw new WireError("PROTOBUF_VALUE", `expected ${jsonTypeOf(type)}, got ${describe(value)}`);
}

function jsonTypeOf(type: string): string {
  if (type === "string") return "a string";
  if (type === "bool") return "a boolean";
  if (type === "double" || type === "float") return "a number";
  return `an integer (${type})`;
}

/** A string with each lone surrogate replaced by U+FFFD, as Go's JSON decoding reads it. */
export function wellFormed(text: string): string {
  return /[\ud800-\udfff]/.test(text) ? text.replace(lone, "\ufffd") : text;
}

const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A short description of a JSON value for error messages. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "bigint") return `bigint ${value}n`;
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `${typeof value} ${preview(JSON.stringify(value) ?? String(value))}`;
}

function preview(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
