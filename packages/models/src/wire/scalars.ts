/** Scalar proto values ⇄ JSON values, and the byte helpers the special types share. */
import { WireError } from "./errors.js";
import { type Int64Mode, int64FromJson, int64Number, int64ToJson } from "./int64.js";

/** A decoded protobufjs message, or a plain object shaped for Type.encode. */
export type ProtoMessage = Record<string, unknown>;

/** True when the decoded message carries `field` (proto2 presence). */
export function has(message: ProtoMessage, field: string): boolean {
  return Object.hasOwn(message, field) && message[field] != null;
}

/** An int64 field's value as a number; throws PROTOBUF_INT64 beyond the safe range. */
export function numberOf(value: unknown): number {
  return int64Number(value);
}

export function bytesOf(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return Buffer.from(value as number[]); // protobufjs' default for an absent bytes value is []
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
 * JSON bytes for a value embedded in a message, as Go holds them after reading its own JSON:
 * encoding/json writes embedded JSON with <, >, &, U+2028 and U+2029 escaped.
 */
export function jsonBytes(value: unknown): Buffer {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (cause) {
    // A RangeError: nested too deeply for the stack (cycles are not JSON values anyway).
    const code = cause instanceof RangeError ? "PROTOBUF_DEPTH" : "PROTOBUF_VALUE";
    throw new WireError(code, `cannot write embedded JSON: ${(cause as Error).message}`, { cause });
  }
  return Buffer.from(text.replace(/[<>&\u2028\u2029]/g, goEscape), "utf8");
}

function goEscape(char: string): string {
  return `\\u${(char.codePointAt(0) as number).toString(16).padStart(4, "0")}`;
}

/** A JSON value of a scalar proto type, as Go's encoding/json writes the Go field. */
export function scalarToJson(type: string, value: unknown, int64: Int64Mode): unknown {
  switch (type) {
    case "int64":
    case "uint64":
    case "sint64":
    case "fixed64":
    case "sfixed64":
      return int64ToJson(value, int64);
    case "bytes":
      return bytesOf(value).toString("base64");
    default:
      return value;
  }
}

export function isZero(value: unknown): boolean {
  return value === "" || value === 0 || value === false;
}

const int32Range = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const uint32Range = { min: 0, max: 2 ** 32 - 1 };
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The protobufjs value for a JSON value of a scalar proto type; throws on a mismatch. */
export function scalarFromJson(type: string, value: unknown): unknown {
  switch (type) {
    case "string":
      // Go's JSON decoding reads a lone surrogate as U+FFFD; protobufjs would write it as CESU-8.
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

/** The zero value Go's encoding/json leaves for `null` inside a list or map of scalars. */
export function scalarZero(type: string): unknown {
  if (type === "string") return "";
  if (type === "bool") return false;
  if (type === "bytes") return Buffer.alloc(0);
  return 0;
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
