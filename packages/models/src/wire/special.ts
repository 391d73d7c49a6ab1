/**
 * Message types whose JSON form is not an object of their proto fields: they implement custom
 * MarshalJSON/UnmarshalJSON in Go. Hand-written because protobufjs knows only the proto side;
 * each codec mirrors the Go type's JSON methods.
 */
import { WireError } from "./errors.js";
import { parseDuration } from "./go-duration.js";
import { parseTimestamp } from "./go-time.js";
import type { Int64Mode } from "./int64.js";
import { int64FromJson } from "./int64.js";
import type { MessagePlan } from "./plan.js";
import { canonicalQuantity } from "./quantity.js";
import {
  describe,
  isPlainObject,
  jsonBytes,
  type ProtoMessage,
  scalarFromJson,
  wellFormed,
} from "./scalars.js";

/** The generic encoding walk, handed to codecs of types that contain ordinary messages. */
export interface Walker {
  readonly int64: Int64Mode;
  /** Message nesting of the walk so far. */
  depth: number;
  fromJson(plan: MessagePlan, value: unknown): ProtoMessage;
}

/** JSON → protobufjs message for a type with custom JSON (decoding: fast-reader.ts). */
export interface SpecialCodec {
  /** The message for a JSON value other than null. */
  fromJson(value: unknown, plan: MessagePlan, walk: Walker): ProtoMessage;
  /**
   * The message Go's protobuf code writes for the type's zero value, which is also what a JSON
   * null gives a non-pointer field of the type.
   */
  readonly zero: ProtoMessage;
}

/** Go's zero time.Time (0001-01-01T00:00:00Z), which metav1.Time writes as an empty message. */
const goZeroTimeSeconds = -62135596800;

function fail(reason: string): never {
  throw new WireError("PROTOBUF_VALUE", reason);
}

function timeCodec(micro: boolean): SpecialCodec {
  return {
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

/** Go's strings.TrimSpace: Unicode white space at both ends. */
function trimSpace(text: string): string {
  return text.replace(
    /^[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g,
    "",
  );
}

/** JSON bytes in a message (FieldsV1, RawExtension, apiextensions JSON). */
function embeddedCodec(field: string): SpecialCodec {
  return {
    fromJson: (value) => ({ [field]: jsonBytes(value) }),
    zero: {}, // nil bytes are not written
  };
}

const codecs: Readonly<Record<string, SpecialCodec>> = {
  "k8s.io.apimachinery.pkg.apis.meta.v1.Time": timeCodec(false),
  "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime": timeCodec(true),
  "k8s.io.apimachinery.pkg.apis.meta.v1.Duration": {
    fromJson: (value) => {
      if (typeof value !== "string") fail(`expected a duration string, got ${describe(value)}`);
      return { duration: int64FromJson(parseDuration(value), "int64") };
    },
    zero: { duration: 0 },
  },
  "k8s.io.apimachinery.pkg.util.intstr.IntOrString": {
    fromJson: (value) => {
      if (typeof value === "string") return { type: 1, intVal: 0, strVal: wellFormed(value) };
      if (typeof value === "number") return { type: 0, intVal: scalarFromJson("int32", value), strVal: "" };
      fail(`expected an integer or a string, got ${describe(value)}`);
    },
    zero: { type: 0, intVal: 0, strVal: "" },
  },
  "k8s.io.apimachinery.pkg.api.resource.Quantity": {
    fromJson: (value) => {
      // Go also accepts a bare JSON number for a quantity, and trims white space.
      const text = typeof value === "number" ? String(value) : value;
      if (typeof text !== "string")
        fail(`expected a quantity such as "100m" or "1Gi", got ${describe(value)}`);
      return { string: canonicalQuantity(trimSpace(text)) };
    },
    zero: { string: "0" },
  },
  "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1": embeddedCodec("Raw"),
  "k8s.io.apimachinery.pkg.runtime.RawExtension": embeddedCodec("raw"),
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON": embeddedCodec("raw"),
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool": {
    fromJson: (value, plan, walk) => {
      if (typeof value === "boolean") return { allows: value };
      if (isPlainObject(value)) return { allows: true, schema: walk.fromJson(schemaPlan(plan), value) };
      fail(`expected a boolean or a JSON schema, got ${describe(value)}`);
    },
    zero: { allows: false },
  },
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray": {
    fromJson: (value, plan, walk) => {
      if (Array.isArray(value)) return { jSONSchemas: value.map((s) => walk.fromJson(schemaPlan(plan), s)) };
      if (isPlainObject(value)) return { schema: walk.fromJson(schemaPlan(plan), value) };
      fail(`expected a JSON schema or a list of them, got ${describe(value)}`);
    },
    zero: {},
  },
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray": {
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
  fromJson: (value) => {
    if (!Array.isArray(value)) fail(`expected an array of strings, got ${describe(value)}`);
    return { items: value.map((s) => scalarFromJson("string", s)) };
  },
  zero: {}, // as a map value; a field of such a type is nil when null, and not written
};
