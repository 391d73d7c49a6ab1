/**
 * A MessagePlan is what the JSON⇄protobuf walk needs to know about one message, worked out once
 * per message type from its protobufjs descriptor and the Go facts of its fields: JSON names,
 * inlined fields, value shapes, how empty values look, and the special (custom-JSON) codec if the
 * type has one.
 */
import protobuf from "protobufjs/light.js";
import { type GoFieldFacts, goFieldFactsOf } from "./field-facts.js";
import { type SpecialCodec, specialCodecFor, wrappedListCodec } from "./special.js";

export interface FieldPlan {
  /** Proto field name: the key in protobufjs messages. */
  readonly proto: string;
  readonly id: number;
  /** Wire type of one value (a map entry, a list element); 2 for messages. */
  readonly wireType: number;
  /** Wire type of a map key. */
  readonly keyWireType: number;
  /** JSON key; "" for an inlined field. */
  readonly json: string;
  /** A Go struct embedded without a JSON name: its fields live in the parent's JSON object. */
  readonly inline: boolean;
  readonly repeated: boolean;
  readonly map: boolean;
  /** Proto scalar type of the value (of each element/map value); undefined for messages. */
  readonly scalar: string | undefined;
  /** Plan of the value's message type; undefined for scalars. */
  readonly message: MessagePlan | undefined;
  readonly facts: GoFieldFacts;
  /**
   * The `items` of a list kind, which the apiserver always writes as an array: [] where Go would
   * write its nil slice as null.
   */
  readonly listItems: boolean;
}

export class MessagePlan {
  readonly type: protobuf.Type;
  /** Full name without the leading dot, e.g. "k8s.io.api.core.v1.Pod". */
  readonly name: string;
  readonly special: SpecialCodec | undefined;
  #fields: readonly FieldPlan[] | undefined;
  #byId: ReadonlyMap<number, FieldPlan> | undefined;

  constructor(type: protobuf.Type) {
    this.type = type;
    this.name = type.fullName.replace(/^\./, "");
    this.special = specialCodecFor(this.name) ?? (isWrappedList(type) ? wrappedListCodec : undefined);
  }

  /**
   * Fields in Go struct order, the order encoding/json writes them. A type with custom JSON has
   * no Go facts; its fields (read only by its special codec and the wire check) keep proto order.
   */
  get fields(): readonly FieldPlan[] {
    if (!this.#fields) {
      const facts = goFieldFactsOf(this.name);
      if (!facts && !this.special) {
        // Codegen checks that every message has facts; this is a models build out of step.
        throw new TypeError(`${this.name} has no Go field facts; run \`pnpm codegen\``);
      }
      if (facts && facts.size !== this.type.fieldsArray.length) {
        throw new TypeError(`${this.name}: the Go field facts and the descriptor list different fields`);
      }
      const ordered = facts ? [...facts.keys()].map((name) => this.type.fields[name]) : this.type.fieldsArray;
      this.#fields = ordered.map((field) => {
        if (!field) throw new TypeError(`${this.name}: Go field facts name a field the descriptor lacks`);
        return fieldPlan(this.name, field, facts?.get(field.name));
      });
    }
    return this.#fields;
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

function fieldPlan(messageName: string, field: protobuf.Field, goFacts: GoFieldFacts | undefined): FieldPlan {
  field.resolve();
  const valueType = field.resolvedType;
  if (valueType instanceof protobuf.Enum) {
    // Kubernetes APIs spell enumerations as strings; the descriptors carry no proto enums.
    throw new TypeError(`${messageName}.${field.name}: enum fields are not supported`);
  }
  const facts = goFacts ?? neutralFacts(field);
  return {
    proto: field.name,
    id: field.id,
    wireType: valueType ? lengthDelimited : wireTypeOf(field.type),
    keyWireType: field instanceof protobuf.MapField ? wireTypeOf(field.keyType) : lengthDelimited,
    json: facts.json,
    inline: facts.json === "",
    repeated: field.repeated,
    map: field.map,
    scalar: valueType ? undefined : field.type,
    // Safe for self-referencing types (JSONSchemaProps): a plan works out its fields on first use.
    message: valueType ? planOf(valueType) : undefined,
    facts,
    listItems: field.name === "items" && isListKind(field.parent),
  };
}

/** Facts for the fields of a custom-JSON type, which only its own codec reads. */
function neutralFacts(field: protobuf.Field): GoFieldFacts {
  const kind = field.map ? "map" : field.repeated ? "slice" : field.resolvedType ? "struct" : "scalar";
  return { json: field.name, pointer: false, omitEmpty: false, omitZero: false, kind };
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
