/**
 * JSON form of an object → plain objects shaped for protobufjs Type.encode: what Go's protobuf
 * code writes for the struct encoding/json decodes the JSON into. Hand-written (rather than
 * Type.fromObject) for the same reasons as to-json.ts, and so that a value that does not fit its
 * field is a typed error naming the field instead of being coerced or dropped.
 *
 * Go writes every non-pointer field, zero or not, and a pointer, slice or map only when it is set;
 * JSON null sets a pointer, slice or map to nil and leaves any other field at its zero value.
 * Unknown JSON keys are ignored, as Go's (non-strict) decoding into the typed struct does.
 */
import { WireError, within } from "./errors.js";
import { maxWireDepth } from "./fast-reader.js";
import type { FieldPlan, MessagePlan } from "./plan.js";
import {
  describe,
  isPlainObject,
  type ProtoMessage,
  scalarFromJson,
  scalarZero,
  wellFormed,
} from "./scalars.js";
import type { Walker } from "./special.js";

export function messageFromJson(plan: MessagePlan, value: unknown, walk: Walker): ProtoMessage {
  if (walk.depth >= maxWireDepth) {
    throw new WireError("PROTOBUF_DEPTH", `messages nested deeper than ${maxWireDepth} levels`);
  }
  walk.depth++;
  try {
    return messageFromJsonAt(plan, value, walk);
  } finally {
    walk.depth--;
  }
}

function messageFromJsonAt(plan: MessagePlan, value: unknown, walk: Walker): ProtoMessage {
  if (value === null) return zeroMessage(plan, walk);
  if (plan.special) return plan.special.fromJson(value, plan, walk);
  if (!isPlainObject(value))
    throw new WireError("PROTOBUF_VALUE", `expected an object, got ${describe(value)}`);
  const out: ProtoMessage = {};
  for (const field of plan.fields) {
    try {
      // An inlined struct reads its own keys from the same JSON object.
      const converted = field.inline
        ? messageFromJson(field.message as MessagePlan, value, walk)
        : fieldFromJson(field, Object.hasOwn(value, field.json) ? value[field.json] : undefined, walk);
      if (converted !== undefined) out[field.proto] = converted;
    } catch (error) {
      throw within(error, field.inline ? "" : `.${field.json}`);
    }
  }
  return out;
}

const zeros = new WeakMap<MessagePlan, ProtoMessage>();

/** The message Go writes for the zero value of a struct: all its non-pointer fields, zero. */
function zeroMessage(plan: MessagePlan, walk: Walker): ProtoMessage {
  if (plan.special) return plan.special.zero;
  let zero = zeros.get(plan);
  if (!zero) {
    // Go structs cannot hold themselves by value, so this terminates.
    zero = messageFromJson(plan, {}, walk);
    zeros.set(plan, zero);
  }
  return zero;
}

/** undefined for a field Go leaves unwritten (nil). */
function fieldFromJson(field: FieldPlan, value: unknown, walk: Walker): unknown {
  if (value === undefined || value === null) {
    const { pointer, kind } = field.facts;
    if (pointer || kind === "slice" || kind === "map" || kind === "bytes") return undefined;
    return field.message ? zeroMessage(field.message, walk) : scalarZero(field.scalar as string);
  }
  if (field.map) {
    if (!isPlainObject(value))
      throw new WireError("PROTOBUF_VALUE", `expected an object, got ${describe(value)}`);
    const map: Record<string, unknown> = {};
    // A lone surrogate in a key reads as U+FFFD in Go, as in values; the last duplicate wins.
    const values = new Map<string, unknown>();
    for (const key of Object.keys(value)) {
      try {
        values.set(wellFormed(key), elementFromJson(field, value[key], walk));
      } catch (error) {
        throw within(error, `[${key}]`);
      }
    }
    const keys = [...values.keys()].sort(compareGoStrings);
    for (const key of keys) map[key] = values.get(key);
    return inKeyOrder(map, keys);
  }
  if (field.repeated) {
    if (!Array.isArray(value))
      throw new WireError("PROTOBUF_VALUE", `expected an array, got ${describe(value)}`);
    return value.map((item, i) => {
      try {
        return elementFromJson(field, item, walk);
      } catch (error) {
        throw within(error, `[${i}]`);
      }
    });
  }
  return elementFromJson(field, value, walk);
}

/** A value (list element, map value or the field's own); null is the zero value. */
function elementFromJson(field: FieldPlan, value: unknown, walk: Walker): unknown {
  if (field.message) return messageFromJson(field.message, value, walk);
  const scalar = field.scalar as string;
  return value === null ? scalarZero(scalar) : scalarFromJson(scalar, value);
}

/**
 * Go writes map entries sorted by key, protobufjs in Object.keys order, which lists integer-like
 * keys first ("2", "10", "app" where Go has "10", "2", "app"). Only a Proxy can make Object.keys
 * answer in another order, so maps with such keys get one.
 */
function inKeyOrder(map: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return keys.some((key) => integerLike.test(key)) ? new Proxy(map, { ownKeys: () => keys }) : map;
}

const integerLike = /^(?:0|[1-9]\d*)$/;

/** Go's string order: by UTF-8 bytes, which differs from UTF-16 order only around surrogates. */
function compareGoStrings(a: string, b: string): number {
  if (/[\ud800-\uffff]/.test(a) || /[\ud800-\uffff]/.test(b))
    return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : a > b ? 1 : 0;
}
