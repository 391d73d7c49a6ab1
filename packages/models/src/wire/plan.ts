/**
 * A MessagePlan is what the JSON⇄protobuf walk needs to know about one message, worked out once
 * per message type from its protobufjs descriptor: JSON names, inlined fields, value shapes,
 * the Go facts about empty values, and the special (custom-JSON) codec if the type has one.
 */
import protobuf from "protobufjs/light.js";
import { type GoFieldFacts, goFieldFacts } from "./field-facts.js";
import { isInlined, jsonNameOf } from "./names.js";
import { type SpecialCodec, specialCodecFor, wrappedListCodec } from "./special.js";

export interface FieldPlan {
  /** Proto field name: the key in protobufjs messages. */
  readonly proto: string;
  readonly id: number;
  /** Wire type of one value (a map entry, a list element); 2 for messages. */
  readonly wireType: number;
  /** Wire type of a map key. */
  readonly keyWireType: number;
  /** JSON key; meaningless for an inlined field. */
  readonly json: string;
  /** A Go struct embedded with `json:",inline"`: its fields live in the parent's JSON object. */
  readonly inline: boolean;
  readonly repeated: boolean;
  readonly map: boolean;
  /** Proto scalar type of the value (of each element/map value); undefined for messages. */
  readonly scalar: string | undefined;
  /** Plan of the value's message type; undefined for scalars. */
  readonly message: MessagePlan | undefined;
  readonly facts: GoFieldFacts;
  /**
   * JSON for a list or map that is empty on the wire (Go decodes it as nil): [] for the `items` of
   * a list kind, which the apiserver always writes as an array; otherwise undefined to leave it out
   * (omitempty), or null as Go writes nil.
   */
  readonly empty: undefined | null | readonly [];
}

export class MessagePlan {
  readonly type: protobuf.Type;
  /** Full name without the leading dot, e.g. "k8s.io.api.core.v1.Pod". */
  readonly name: string;
  readonly special: SpecialCodec | undefined;
  #fields: readonly FieldPlan[] | undefined;
  #routes: ReadonlyMap<string, FieldPlan> | undefined;
  #byId: ReadonlyMap<number, FieldPlan> | undefined;

  constructor(type: protobuf.Type) {
    this.type = type;
    this.name = type.fullName.replace(/^\./, "");
    this.special = specialCodecFor(this.name) ?? (isWrappedList(type) ? wrappedListCodec : undefined);
  }

  /** Fields in declaration order (which follows the Go struct, as JSON does). */
  get fields(): readonly FieldPlan[] {
    this.#fields ??= this.type.fieldsArray.map((field) => fieldPlan(this.name, field));
    return this.#fields;
  }

  /** The field that owns each JSON key; keys of an inlined struct map to the inlined field. */
  get routes(): ReadonlyMap<string, FieldPlan> {
    if (!this.#routes) {
      const routes = new Map<string, FieldPlan>();
      for (const field of this.fields) {
        if (field.inline && field.message) {
          for (const key of field.message.routes.keys()) routes.set(key, field);
        } else {
          routes.set(field.json, field);
        }
      }
      this.#routes = routes;
    }
    return this.#routes;
  }

  get byId(): ReadonlyMap<number, FieldPlan> {
    this.#byId ??= new Map(this.fields.map((f) => [f.id, f]));
    return this.#byId;
  }

  field(proto: string): FieldPlan | undefined {
    return this.fields.find((f) => f.proto === proto);
  }
}

const plans = new WeakMap<protobuf.Type, MessagePlan>();

export function planOf(type: protobuf.Type): MessagePlan {
  let plan = plans.get(type);
  if (!plan) {
    plan = new MessagePlan(type);
    plans.set(type, plan);
  }
  return plan;
}

function fieldPlan(messageName: string, field: protobuf.Field): FieldPlan {
  field.resolve();
  const valueType = field.resolvedType;
  if (valueType instanceof protobuf.Enum) {
    // Kubernetes APIs spell enumerations as strings; the descriptors carry no proto enums.
    throw new TypeError(`${messageName}.${field.name}: enum fields are not supported`);
  }
  const json = jsonNameOf(messageName, field.name);
  const facts = goFieldFacts(messageName, json);
  return {
    proto: field.name,
    id: field.id,
    wireType: valueType ? lengthDelimited : wireTypeOf(field.type),
    keyWireType: field instanceof protobuf.MapField ? wireTypeOf(field.keyType) : lengthDelimited,
    json,
    inline: isInlined(messageName, field.name),
    repeated: field.repeated,
    map: field.map,
    scalar: valueType ? undefined : field.type,
    // Safe for self-referencing types (JSONSchemaProps): a plan works out its fields on first use.
    message: valueType ? planOf(valueType) : undefined,
    facts,
    empty: field.name === "items" && isListKind(field.parent) ? [] : facts.omitEmpty ? undefined : null,
  };
}

const lengthDelimited = 2;

/** A message with ListMeta metadata and repeated items: ConfigMapList, PodList, ... */
function isListKind(type: protobuf.ReflectionObject | null): boolean {
  if (!(type instanceof protobuf.Type)) return false;
  const metadata = type.fields.metadata;
  return metadata?.resolve().resolvedType?.fullName === ".k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta";
}

function wireTypeOf(scalar: string): number {
  const wireType = (protobuf.types.basic as Record<string, number | undefined>)[scalar];
  if (wireType === undefined) throw new TypeError(`unknown scalar type ${scalar}`);
  return wireType;
}

/**
 * Go slice types with their own proto message (`+protobuf.nullable=true`, e.g. ExtraValue,
 * Verbs): one repeated scalar field `items`, written as a bare JSON array.
 */
function isWrappedList(type: protobuf.Type): boolean {
  const [only, ...more] = type.fieldsArray;
  return more.length === 0 && only?.name === "items" && only.repeated && !only.resolve().resolvedType;
}
