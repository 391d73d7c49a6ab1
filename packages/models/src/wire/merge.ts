/**
 * Protobuf merge semantics for a message field that is not repeated but appears more than once:
 * Go's decoder merges the occurrences (scalars: the last wins; lists: concatenated; maps: joined;
 * messages: merged the same way), protobufjs keeps only the last. Parsing the concatenation of
 * the occurrences is that merge, so the occurrences are rewritten as one field holding their
 * concatenated payloads before protobufjs decodes the bytes. Time and MicroTime are the exception:
 * their Go decoder replaces the whole value, which is what protobufjs does already.
 *
 * Runs only when verifyWire found such a field, on bytes verifyWire accepted.
 */
import protobuf from "protobufjs/light.js";
import type { FieldPlan, MessagePlan } from "./plan.js";

const replacedWhole = new Set([
  "k8s.io.apimachinery.pkg.apis.meta.v1.Time",
  "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime",
]);

/** Whether Go merges repeated occurrences of `field` (a singular message field). */
export function mergesOccurrences(field: FieldPlan): boolean {
  return (
    field.message !== undefined && !field.repeated && !field.map && !replacedWhole.has(field.message.name)
  );
}

interface Occurrences {
  readonly field: FieldPlan;
  readonly payloads: Uint8Array[];
  slot: number;
}

/** `bytes` with every singular message field written once, holding the merge of its occurrences. */
export function mergeOccurrences(plan: MessagePlan, bytes: Uint8Array): Uint8Array {
  const reader = protobuf.Reader.create(bytes);
  const parts: Uint8Array[] = [];
  const merged = new Map<number, Occurrences>();
  while (reader.pos < bytes.length) {
    const start = reader.pos;
    const tag = reader.uint32();
    const field = plan.byId.get(tag >>> 3);
    if (field?.map && field.message && (tag & 7) === 2) {
      const length = reader.uint32();
      const entry = bytes.subarray(reader.pos, reader.pos + length);
      reader.pos += length;
      parts.push(fieldBytes(field, mergeInEntry(field.message, entry)));
      continue;
    }
    if (!field?.message || field.map || (tag & 7) !== 2) {
      reader.skipType(tag & 7);
      parts.push(bytes.subarray(start, reader.pos));
      continue;
    }
    const length = reader.uint32();
    const payload = bytes.subarray(reader.pos, reader.pos + length);
    reader.pos += length;
    if (!mergesOccurrences(field)) {
      parts.push(fieldBytes(field, mergeOccurrences(field.message, payload)));
      continue;
    }
    const seen = merged.get(field.id);
    if (seen) {
      parts[seen.slot] = empty;
      seen.slot = parts.length;
      seen.payloads.push(payload);
    } else {
      merged.set(field.id, { field, payloads: [payload], slot: parts.length });
    }
    parts.push(empty);
  }
  for (const { field, payloads, slot } of merged.values()) {
    parts[slot] = fieldBytes(field, mergeOccurrences(field.message as MessagePlan, Buffer.concat(payloads)));
  }
  return Buffer.concat(parts);
}

/**
 * A map entry whose values are messages: Go (like protobufjs) keeps the last value of an entry
 * whole, but merges repeated fields inside that value.
 */
function mergeInEntry(valuePlan: MessagePlan, entry: Uint8Array): Uint8Array {
  const reader = protobuf.Reader.create(entry);
  const parts: Uint8Array[] = [];
  while (reader.pos < entry.length) {
    const start = reader.pos;
    const tag = reader.uint32();
    if (tag === ((2 << 3) | 2)) {
      const length = reader.uint32();
      const value = mergeOccurrences(valuePlan, entry.subarray(reader.pos, reader.pos + length));
      reader.pos += length;
      parts.push(protobuf.Writer.create().uint32(tag).bytes(value).finish());
    } else {
      reader.skipType(tag & 7);
      parts.push(entry.subarray(start, reader.pos));
    }
  }
  return Buffer.concat(parts);
}

const empty = new Uint8Array(0);

function fieldBytes(field: FieldPlan, payload: Uint8Array): Uint8Array {
  return protobuf.Writer.create()
    .uint32((field.id << 3) | 2)
    .bytes(payload)
    .finish();
}
