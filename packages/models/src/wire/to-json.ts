/**
 * Decoded protobufjs message → the JSON form the apiserver writes. Hand-written (rather than
 * Type.toObject) because the JSON form differs from a plain field dump: inlined structs, renamed
 * fields, custom-JSON types and Go's omitempty rules. Walking the decoded message directly also
 * saves a full copy and a base64 round trip of every embedded JSON blob (managedFields).
 */
import { within } from "./errors.js";
import type { FieldPlan, MessagePlan } from "./plan.js";
import { has, isZero, type ProtoMessage, scalarToJson, scalarZero } from "./scalars.js";
import type { Walker } from "./special.js";

export function messageToJson(plan: MessagePlan, message: ProtoMessage, walk: Walker): unknown {
  if (plan.special) return plan.special.toJson(message, plan, walk);
  const out: Record<string, unknown> = {};
  for (const field of plan.fields) {
    try {
      writeField(out, field, message, walk);
    } catch (error) {
      throw within(error, field.inline ? "" : `.${field.json}`);
    }
  }
  return out;
}

function writeField(
  out: Record<string, unknown>,
  field: FieldPlan,
  message: ProtoMessage,
  walk: Walker,
): void {
  const value = message[field.proto];
  if (field.map) {
    const entries = value as Record<string, unknown> | undefined;
    const keys = entries ? Object.keys(entries) : [];
    if (keys.length === 0) {
      if (field.empty !== undefined) out[field.json] = field.empty === null ? null : {};
    } else {
      const map: Record<string, unknown> = {};
      for (const key of keys) {
        try {
          map[key] = valueToJson(field, (entries as Record<string, unknown>)[key], walk);
        } catch (error) {
          throw within(error, `[${key}]`);
        }
      }
      out[field.json] = map;
    }
    return;
  }
  if (field.repeated) {
    const items = value as unknown[] | undefined;
    if (!items || items.length === 0) {
      if (field.empty !== undefined) out[field.json] = field.empty === null ? null : [];
    } else {
      out[field.json] = items.map((item, i) => {
        try {
          return valueToJson(field, item, walk);
        } catch (error) {
          throw within(error, `[${i}]`);
        }
      });
    }
    return;
  }
  if (!has(message, field.proto)) return;
  const json = valueToJson(field, value, walk);
  if (field.inline) {
    Object.assign(out, json);
  } else if (json === null && field.facts.omitZero) {
    // a zero struct under `omitzero` (ObjectMeta.creationTimestamp) is left out
  } else if (!(field.scalar && isZero(json) && field.facts.omitEmpty && !field.facts.pointer)) {
    out[field.json] = json;
  }
}

function valueToJson(field: FieldPlan, value: unknown, walk: Walker): unknown {
  // A map entry without its value field decodes to null; Go reads it as the zero value.
  if (field.message) return messageToJson(field.message, (value ?? {}) as ProtoMessage, walk);
  const scalar = field.scalar as string;
  return scalarToJson(scalar, value ?? scalarZero(scalar));
}
