/**
 * Checks a message's wire structure against its descriptor before protobufjs decodes it.
 * protobufjs trusts the bytes: a field sent with the wrong wire type, or a nested message that
 * claims more bytes than its parent holds, is read as whatever the bytes happen to say. Go's
 * decoder rejects both, so the codec does too. Hand-written: protobufjs has no such check
 * (Type.verify checks decoded objects, not bytes). Unknown fields are skipped, as Go does.
 */
import protobuf from "protobufjs/light.js";
import { WireError, within } from "./errors.js";
import { mergesOccurrences } from "./merge.js";
import type { FieldPlan, MessagePlan } from "./plan.js";

/**
 * How deeply messages may nest, counting those of embedded objects (a ControllerRevision holding
 * a ControllerRevision ...) too: deep enough for any real object, shallow enough that the
 * recursive walks stay far from the stack limit.
 */
export const maxWireDepth = 512;
const lengthDelimited = 2;

export interface WireShape {
  /** The deepest message nesting seen (the top message is 0). */
  depth: number;
  /** A singular message field appears more than once somewhere (see merge.ts). */
  repeatsMessages: boolean;
}

/** Checks `bytes`; `outerDepth` is the nesting of the object that embeds them (0 for the top). */
export function verifyWire(plan: MessagePlan, bytes: Uint8Array, outerDepth = 0): WireShape {
  const reader = protobuf.Reader.create(bytes);
  const shape: WireShape = { depth: outerDepth, repeatsMessages: false };
  verifyMessage(plan, reader, bytes.length, outerDepth, shape);
  return shape;
}

function verifyMessage(
  plan: MessagePlan,
  reader: protobuf.Reader,
  end: number,
  depth: number,
  shape: WireShape,
): void {
  if (depth > maxWireDepth) {
    throw new WireError("PROTOBUF_DEPTH", `messages nested deeper than ${maxWireDepth} levels`);
  }
  if (depth > shape.depth) shape.depth = depth;
  const byId = plan.byId;
  let seenLow = 0; // singular message fields seen, by id (1–31)
  let seenHigh: Set<number> | undefined;
  while (reader.pos < end) {
    const tag = reader.uint32();
    const wireType = tag & 7;
    const field = byId.get(tag >>> 3);
    if (!field) {
      skip(reader, wireType, end);
      continue;
    }
    if (mergesOccurrences(field)) {
      if (field.id < 32) {
        const bit = 1 << field.id;
        if (seenLow & bit) shape.repeatsMessages = true;
        seenLow |= bit;
      } else {
        seenHigh ??= new Set();
        if (seenHigh.has(field.id)) shape.repeatsMessages = true;
        seenHigh.add(field.id);
      }
    }
    try {
      verifyField(field, reader, wireType, end, depth, shape);
    } catch (error) {
      throw within(error, field.inline ? "" : `.${field.json}`);
    }
  }
  if (reader.pos !== end) throw malformed("a value runs past the end of its message");
}

function verifyField(
  field: FieldPlan,
  reader: protobuf.Reader,
  wireType: number,
  end: number,
  depth: number,
  shape: WireShape,
) {
  if (field.map) {
    expectWireType(wireType, lengthDelimited);
    const entryEnd = lengthEnd(reader, end);
    while (reader.pos < entryEnd) {
      const tag = reader.uint32();
      if (tag >>> 3 === 1) {
        expectWireType(tag & 7, field.keyWireType);
        skip(reader, tag & 7, entryEnd);
      } else if (tag >>> 3 === 2) {
        verifyValue(field, reader, tag & 7, entryEnd, depth, shape);
      } else {
        skip(reader, tag & 7, entryEnd);
      }
    }
    if (reader.pos !== entryEnd) throw malformed("a map entry runs past its end");
    return;
  }
  // A repeated scalar may also come packed (one length-delimited run of values).
  if (
    field.repeated &&
    !field.message &&
    field.wireType !== lengthDelimited &&
    wireType === lengthDelimited
  ) {
    reader.pos = lengthEnd(reader, end);
    return;
  }
  verifyValue(field, reader, wireType, end, depth, shape);
}

function verifyValue(
  field: FieldPlan,
  reader: protobuf.Reader,
  wireType: number,
  end: number,
  depth: number,
  shape: WireShape,
) {
  expectWireType(wireType, field.wireType);
  if (field.message) {
    const valueEnd = lengthEnd(reader, end);
    verifyMessage(field.message, reader, valueEnd, depth + 1, shape);
  } else {
    skip(reader, wireType, end);
  }
}

/** Reads a length prefix and returns where the value ends, which must be inside `end`. */
function lengthEnd(reader: protobuf.Reader, end: number): number {
  const length = reader.uint32();
  if (reader.pos + length > end) throw malformed("a length-delimited value runs past the end of its message");
  return reader.pos + length;
}

function skip(reader: protobuf.Reader, wireType: number, end: number): void {
  if (wireType === 3 || wireType === 4 || wireType > 5) throw malformed(`unsupported wire type ${wireType}`);
  reader.skipType(wireType);
  if (reader.pos > end) throw malformed("a value runs past the end of its message");
}

function expectWireType(actual: number, expected: number): void {
  if (actual !== expected) throw malformed(`wrong wire type ${actual} (expected ${expected})`);
}

function malformed(reason: string): WireError {
  return new WireError("PROTOBUF_MESSAGE", reason);
}
