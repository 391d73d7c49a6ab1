/**
 * JSON form of an object → plain objects shaped for protobufjs Type.encode. Hand-written (rather
 * than Type.fromObject) for the same reasons as to-json.ts, and so that a value that does not fit
 * its field is a typed error naming the field instead of being coerced or dropped.
 *
 * Only fields present in the JSON are written. Go also writes its non-pointer fields when they are
 * empty; that changes bytes, not meaning (a missing field decodes to the same zero value).
 * Unknown JSON keys are ignored, as Go's (non-strict) decoding into the typed struct does.
 */
import { WireError, within } from "./errors.js";
import type { FieldPlan, MessagePlan } from "./plan.js";
import { describe, isPlainObject, type ProtoMessage, scalarFromJson, scalarZero } from "./scalars.js";
import type { Walker } from "./special.js";

export function messageFromJson(plan: MessagePlan, value: unknown, walk: Walker): ProtoMessage {
  if (plan.special) return plan.special.fromJson(value, plan, walk) ?? {};
  if (value === null) return {}; // a null list element or map value: Go's zero struct
  if (!isPlainObject(value))
    throw new WireError("ERR_PROTOBUF_VALUE", `expected an object, got ${describe(value)}`);
  const out: ProtoMessage = {};
  let inlined: Map<FieldPlan, Record<string, unknown>> | undefined;
  for (const key of Object.keys(value)) {
    const field = plan.routes.get(key);
    if (!field) continue;
    if (field.inline) {
      inlined ??= new Map();
      const part = inlined.get(field) ?? {};
      part[key] = value[key];
      inlined.set(field, part);
      continue;
    }
    try {
      const converted = fieldFromJson(field, value[key], walk);
      if (converted !== undefined) out[field.proto] = converted;
    } catch (error) {
      throw within(error, `.${key}`);
    }
  }
  for (const field of plan.fields) {
    // Inlined Go structs are never pointers, so Go always writes them, even when empty.
    if (field.inline && field.message) {
      out[field.proto] = messageFromJson(field.message, inlined?.get(field) ?? {}, walk);
    }
  }
  return out;
}

function fieldFromJson(field: FieldPlan, value: unknown, walk: Walker): unknown {
  if (value === null) {
    // null leaves a Go field unset; custom-JSON types decide for themselves (Time: the zero time).
    const special = !field.repeated && !field.map ? field.message?.special : undefined;
    return special ? special.fromJson(null, field.message as MessagePlan, walk) : undefined;
  }
  if (field.map) {
    if (!isPlainObject(value))
      throw new WireError("ERR_PROTOBUF_VALUE", `expected an object, got ${describe(value)}`);
    const map: Record<string, unknown> = {};
    // Go writes map entries sorted by key; protobufjs writes them in insertion order.
    for (const key of Object.keys(value).sort()) {
      try {
        map[key] = elementFromJson(field, value[key], walk);
      } catch (error) {
        throw within(error, `[${key}]`);
      }
    }
    return map;
  }
  if (field.repeated) {
    if (!Array.isArray(value))
      throw new WireError("ERR_PROTOBUF_VALUE", `expected an array, got ${describe(value)}`);
    return value.map((item, i) => {
      try {
        return elementFromJson(field, item, walk);
      } catch (error) {
        throw within(error, `[${i}]`);
      }
    });
  }
  return field.message
    ? messageFromJson(field.message, value, walk)
    : scalarFromJson(field.scalar as string, value);
}

function elementFromJson(field: FieldPlan, value: unknown, walk: Walker): unknown {
  if (field.message) return messageFromJson(field.message, value, walk);
  const scalar = field.scalar as string;
  return value === null ? scalarZero(scalar) : scalarFromJson(scalar, value);
}
