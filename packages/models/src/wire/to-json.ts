/**
 * Decoded protobufjs message → the JSON the apiserver writes: what Go's encoding/json writes for
 * the struct the Go protobuf code decodes the bytes into. Hand-written (rather than
 * Type.toObject) because the JSON form differs from a plain field dump: inlined structs, renamed
 * fields, custom-JSON types and Go's empty-value rules. Walking the decoded message directly also
 * saves a full copy and a base64 round trip of every embedded JSON blob (managedFields).
 *
 * A field the bytes leave out is Go's zero value: nil for pointers, slices and maps (left out under
 * omitempty/omitzero, else null), the zero scalar or struct otherwise (written unless omitempty
 * drops the zero scalar; encoding/json never drops a non-pointer struct, except under omitzero).
 */
import { within } from "./errors.js";
import type { FieldPlan, MessagePlan } from "./plan.js";
import { has, isZero, type ProtoMessage, scalarToJson, scalarZero } from "./scalars.js";
import type { Walker } from "./special.js";

export function messageToJson(plan: MessagePlan, message: ProtoMessage, walk: Walker): unknown {
  if (plan.special) return plan.special.toJson(message, plan, walk);
  const out: Record<string, unknown> = {};
  writeFields(out, plan, message, walk);
  return out;
}

function writeFields(out: Record<string, unknown>, plan: MessagePlan, message: ProtoMessage, walk: Walker) {
  for (const field of plan.fields) {
    try {
      writeField(out, field, message, walk);
    } catch (error) {
      throw within(error, field.inline ? "" : `.${field.json}`);
    }
  }
}

function writeField(out: Record<string, unknown>, field: FieldPlan, message: ProtoMessage, walk: Walker) {
  const present = has(message, field.proto);
  const value = present ? message[field.proto] : undefined;
  if (field.inline) {
    writeFields(out, field.message as MessagePlan, (value ?? {}) as ProtoMessage, walk);
    return;
  }
  const { pointer, kind } = field.facts;
  if (field.map || field.repeated) {
    // Protobuf cannot tell an empty list or map from nil; Go decodes both as nil.
    if (field.map && value && Object.keys(value).length > 0) {
      out[field.json] = mapToJson(field, value as Record<string, unknown>, walk);
    } else if (!field.map && (value as unknown[] | undefined)?.length) {
      out[field.json] = listToJson(field, value as unknown[], walk);
    } else {
      writeNil(out, field);
    }
    return;
  }
  if (!present && (pointer || kind === "slice" || kind === "bytes")) {
    writeNil(out, field);
    return;
  }
  const json = valueToJson(field, value, walk);
  if (!pointer && isLeftOut(field, json)) return;
  out[field.json] = json;
}

function writeNil(out: Record<string, unknown>, field: FieldPlan): void {
  if (field.listItems) out[field.json] = [];
  else if (!field.facts.omitEmpty && !field.facts.omitZero) out[field.json] = null;
}

/** Whether omitempty/omitzero drop a set non-pointer value (a []byte or a wrapped list is set but may be empty). */
function isLeftOut(field: FieldPlan, json: unknown): boolean {
  const { omitEmpty, omitZero, kind } = field.facts;
  if (kind === "scalar") return (omitEmpty || omitZero) && isZero(json);
  // codegen allows omitzero on custom-JSON structs only, whose zero value is written as null
  if (kind === "struct") return omitZero && json === null;
  return omitEmpty && (json === "" || (Array.isArray(json) && json.length === 0));
}

function mapToJson(
  field: FieldPlan,
  entries: Record<string, unknown>,
  walk: Walker,
): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  for (const key of Object.keys(entries)) {
    try {
      map[key] = valueToJson(field, entries[key], walk);
    } catch (error) {
      throw within(error, `[${key}]`);
    }
  }
  return map;
}

function listToJson(field: FieldPlan, items: unknown[], walk: Walker): unknown[] {
  return items.map((item, i) => {
    try {
      return valueToJson(field, item, walk);
    } catch (error) {
      throw within(error, `[${i}]`);
    }
  });
}

/** A value, or Go's zero value for undefined (and for a map entry without its value field). */
function valueToJson(field: FieldPlan, value: unknown, walk: Walker): unknown {
  if (field.message) return messageToJson(field.message, (value ?? {}) as ProtoMessage, walk);
  const scalar = field.scalar as string;
  return scalarToJson(scalar, value ?? scalarZero(scalar), walk.int64);
}
