/**
 * Message types whose JSON form is not an object of their proto fields: they implement custom
 * MarshalJSON/UnmarshalJSON in Go. Hand-written because protobufjs knows only the proto side;
 * each codec mirrors the Go type's JSON methods.
 */
import { WireError } from "./errors.js";
import { formatDuration, parseDuration } from "./go-duration.js";
import { formatTimestamp, parseTimestamp } from "./go-time.js";
import type { Int64Mode } from "./int64.js";
import { int64Exact, int64FromJson } from "./int64.js";
import type { MessagePlan } from "./plan.js";
import { canonicalQuantity } from "./quantity.js";
import {
  bytesOf,
  describe,
  has,
  isPlainObject,
  jsonBytes,
  numberOf,
  type ProtoMessage,
  parseEmbeddedJson,
  scalarFromJson,
  wellFormed,
} from "./scalars.js";

/** The generic walk, handed to codecs of types that contain ordinary messages. */
export interface Walker {
  /** How decoding writes int64 values beyond the safe range. */
  readonly int64: Int64Mode;
  /** Message nesting: of the enclosing objects when decoding, of the walk so far when encoding. */
  depth: number;
  toJson(plan: MessagePlan, message: ProtoMessage): unknown;
  fromJson(plan: MessagePlan, value: unknown): ProtoMessage;
  /** An embedded object whose bytes start with the protobuf magic. */
  decodeEmbedded(bytes: Uint8Array): unknown;
}

export interface SpecialCodec {
  toJson(message: ProtoMessage, plan: MessagePlan, walk: Walker): unknown;
  /** The message for a JSON value other than null. */
  fromJson(value: unknown, plan: MessagePlan, walk: Walker): ProtoMessage;
  /**
   * The message Go's protobuf code writes for the type's zero value, which is also what a JSON
   * null gives a non-pointer field of the type.
   */
  readonly zero: ProtoMessage;
}

const protobufMagic = [0x6b, 0x38, 0x73, 0x00];
/** Go's zero time.Time (0001-01-01T00:00:00Z), which metav1.Time writes as an empty message. */
const goZeroTimeSeconds = -62135596800;

function fail(reason: string): never {
  throw new WireError("PROTOBUF_VALUE", reason);
}

function timeCodec(micro: boolean): SpecialCodec {
  return {
    // An empty message is the zero time, which Go's JSON writes as null.
    toJson: (m) => {
      if (!has(m, "seconds") && !has(m, "nanos")) return null;
      // Time drops the nanos; MicroTime truncates them (towards zero) to microseconds, and
      // time.Unix carries what lies outside [0, 1e9) into the seconds.
      const nanos = micro ? truncateToMicros(numberOf(m.nanos ?? 0)) : 0;
      const carry = Math.floor(nanos / nanosPerSecond);
      const seconds = numberOf(m.seconds ?? 0) + carry;
      const rest = nanos - carry * nanosPerSecond;
      if (seconds === goZeroTimeSeconds && rest === 0) return null;
      return formatTimestamp({ seconds, nanos: rest }, micro);
    },
    fromJson: (value) => {
      if (typeof value !== "string") fail(`expected an RFC 3339 time, got ${describe(value)}`);
      const ts = parseTimestamp(value, micro);
      if (ts.seconds === goZeroTimeSeconds && ts.nanos === 0) return {};
      // Go writes a Time's seconds only (its nanos field as 0), a MicroTime's microseconds too.
      return { seconds: ts.seconds, nanos: micro ? ts.nanos : 0 };
    },
    zero: {}, // Go writes the zero time as an empty message
  };
}

const nanosPerSecond = 1_000_000_000;

function truncateToMicros(nanos: number): number {
  return nanos - (nanos % 1000);
}

/** Go's strings.TrimSpace: Unicode white space at both ends. */
function trimSpace(text: string): string {
  return text.replace(
    /^[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g,
    "",
  );
}

/** JSON bytes in a message (FieldsV1, apiextensions JSON); RawExtension also takes protobuf. */
function embeddedCodec(field: string, protobufToo: boolean): SpecialCodec {
  return {
    toJson: (m, _plan, walk) => {
      const raw = has(m, field) ? bytesOf(m[field]) : undefined;
      if (!raw || raw.length === 0) return null;
      if (protobufToo && protobufMagic.every((b, i) => raw[i] === b)) return walk.decodeEmbedded(raw);
      return parseEmbeddedJson(raw);
    },
    fromJson: (value) => ({ [field]: jsonBytes(value) }),
    zero: {}, // nil bytes are not written
  };
}

const codecs: Readonly<Record<string, SpecialCodec>> = {
  "k8s.io.apimachinery.pkg.apis.meta.v1.Time": timeCodec(false),
  "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime": timeCodec(true),
  "k8s.io.apimachinery.pkg.apis.meta.v1.Duration": {
    toJson: (m) => formatDuration(has(m, "duration") ? int64Exact(m.duration) : 0n),
    fromJson: (value) => {
      if (typeof value !== "string") fail(`expected a duration string, got ${describe(value)}`);
      return { duration: int64FromJson(parseDuration(value), "int64") };
    },
    zero: { duration: 0 },
  },
  "k8s.io.apimachinery.pkg.util.intstr.IntOrString": {
    toJson: (m) => (has(m, "type") && numberOf(m.type) === 1 ? (m.strVal ?? "") : (m.intVal ?? 0)),
    fromJson: (value) => {
      if (typeof value === "string") return { type: 1, intVal: 0, strVal: wellFormed(value) };
      if (typeof value === "number") return { type: 0, intVal: scalarFromJson("int32", value), strVal: "" };
      fail(`expected an integer or a string, got ${describe(value)}`);
    },
    zero: { type: 0, intVal: 0, strVal: "" },
  },
  "k8s.io.apimachinery.pkg.api.resource.Quantity": {
    // Go parses the string (failing on what it rejects) and writes it back canonical.
    toJson: (m) => (has(m, "string") ? canonicalQuantity(m.string as string) : "0"),
    fromJson: (value) => {
      // Go also accepts a bare JSON number for a quantity, and trims white space.
      const text = typeof value === "number" ? String(value) : value;
      if (typeof text !== "string")
        fail(`expected a quantity such as "100m" or "1Gi", got ${describe(value)}`);
      return { string: canonicalQuantity(trimSpace(text)) };
    },
    zero: { string: "0" },
  },
  "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1": embeddedCodec("Raw", false),
  "k8s.io.apimachinery.pkg.runtime.RawExtension": embeddedCodec("raw", true),
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON": embeddedCodec("raw", false),
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool": {
    toJson: (m, plan, walk) =>
      has(m, "schema") ? walk.toJson(schemaPlan(plan), m.schema as ProtoMessage) : m.allows === true,
    fromJson: (value, plan, walk) => {
      if (typeof value === "boolean") return { allows: value };
      if (isPlainObject(value)) return { allows: true, schema: walk.fromJson(schemaPlan(plan), value) };
      fail(`expected a boolean or a JSON schema, got ${describe(value)}`);
    },
    zero: { allows: false },
  },
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray": {
    toJson: (m, plan, walk) => {
      const list = m.jSONSchemas as ProtoMessage[] | undefined;
      if (list && list.length > 0) return list.map((s) => walk.toJson(schemaPlan(plan), s));
      return has(m, "schema") ? walk.toJson(schemaPlan(plan), m.schema as ProtoMessage) : null;
    },
    fromJson: (value, plan, walk) => {
      if (Array.isArray(value)) return { jSONSchemas: value.map((s) => walk.fromJson(schemaPlan(plan), s)) };
      if (isPlainObject(value)) return { schema: walk.fromJson(schemaPlan(plan), value) };
      fail(`expected a JSON schema or a list of them, got ${describe(value)}`);
    },
    zero: {},
  },
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray": {
    toJson: (m, plan, walk) => {
      const list = m.property as string[] | undefined;
      if (list && list.length > 0) return [...list];
      return has(m, "schema") ? walk.toJson(schemaPlan(plan), m.schema as ProtoMessage) : null;
    },
    fromJson: (value, plan, walk) => {
      if (Array.isArray(value)) return { property: value.map((s) => scalarFromJson("string", s)) };
      if (isPlainObject(value)) return { schema: walk.fromJson(schemaPlan(plan), value) };
      fail(`expected a JSON schema or a list of strings, got ${describe(value)}`);
    },
    zero: {},
  },
};

function schemaPlan(plan: MessagePlan): MessagePlan {
  const schema = plan.field("schema")?.message;
  if (!schema) throw new TypeError(`${plan.name} has no schema field`);
  return schema;
}

export function specialCodecFor(messageName: string): SpecialCodec | undefined {
  return codecs[messageName];
}

/** ExtraValue, Verbs, ...: a message wrapping `repeated string items`, written as a bare array. */
export const wrappedListCodec: SpecialCodec = {
  toJson: (m) => [...((m.items as string[] | undefined) ?? [])],
  fromJson: (value) => {
    if (!Array.isArray(value)) fail(`expected an array of strings, got ${describe(value)}`);
    return { items: value.map((s) => scalarFromJson("string", s)) };
  },
  zero: {}, // as a map value; a field of such a type is nil when null, and not written
};
