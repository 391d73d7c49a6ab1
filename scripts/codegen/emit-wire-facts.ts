/**
 * generated/wire-facts.ts: for every protobuf message field, the Go facts the wire codec needs
 * to write exactly the JSON encoding/json writes (and the protobuf the Go code writes): JSON name
 * or inlining, pointer, omitempty/omitzero and Go kind. The Go facts are checked against the
 * protobuf descriptors field by field, so a message without facts, or facts that disagree with
 * the descriptor, stop code generation instead of reaching the codec.
 */
import { CodegenError } from "./errors.js";
import type { GoFieldFact, GoMessageFacts } from "./go-field-facts.js";
import type { Protobuf } from "./protobufjs.js";
import { protobuf } from "./protobufjs.js";
import { type GenerationInfo, header, templateLiteral } from "./render.js";
import { compareStrings } from "./shape.js";

export interface EmittedWireFacts {
  readonly content: string;
  readonly messageCount: number;
  readonly fieldCount: number;
}

const kindLetters: Readonly<Record<GoFieldFact["kind"], string>> = {
  scalar: "",
  bytes: "b",
  slice: "l",
  map: "m",
  struct: "o",
};

export function emitWireFacts(
  types: ReadonlyMap<string, Protobuf.Type>,
  facts: readonly GoMessageFacts[],
  info: GenerationInfo,
): EmittedWireFacts {
  const byName = new Map(facts.map((m) => [m.name, m]));
  const problems: string[] = [];
  const kept: GoMessageFacts[] = [];
  const keptTypes: Protobuf.Type[] = [];
  for (const [name, type] of [...types].sort(([a], [b]) => compareStrings(a, b))) {
    const message = byName.get(name);
    if (!message) {
      problems.push(`${name}: no Go type has this message (a group missing from go-field-facts/schemes.go?)`);
    } else if (message.goKind === "slice") {
      if (!isWrappedList(type))
        problems.push(`${name}: a Go slice, but not a message of one repeated scalar "items"`);
    } else if (!message.customJson) {
      problems.push(...checkFields(type, message, byName));
      kept.push(message);
      keptTypes.push(type);
    }
  }
  if (problems.length === 0) {
    for (const type of keptTypes) problems.push(...checkJsonKeys(type, byName));
  }
  if (problems.length > 0) {
    throw new CodegenError(
      "ERR_GO_FIELD_FACTS",
      `the Go field facts do not fit the protobuf descriptors:\n  ${problems.join("\n  ")}`,
    );
  }
  const byPackage = new Map<string, string[]>();
  for (const message of kept) {
    const dot = message.name.lastIndexOf(".");
    const lines = byPackage.get(message.name.slice(0, dot)) ?? [];
    const fields = Object.fromEntries(message.fields.map((f) => [f.proto, encodeFact(f)]));
    lines.push(`${JSON.stringify(message.name.slice(dot + 1))}:${JSON.stringify(fields)}`);
    byPackage.set(message.name.slice(0, dot), lines);
  }
  const packages = [...byPackage].map(([pkg, lines]) => `${JSON.stringify(pkg)}:{\n${lines.join(",\n")}\n}`);
  const json = `{\n${packages.join(",\n")}\n}`;
  const content = [
    header(info, "Go types of k8s.io/api, apimachinery, apiextensions-apiserver, kube-aggregator"),
    "/**",
    " * Go struct field facts by protobuf package, message and proto field name, fields in Go struct",
    " * order (the order encoding/json writes them). Each value is flags, then `:` and the JSON name",
    " * when it differs from the proto name (`:` alone: an embedded struct inlined into the parent):",
    " * p pointer, e omitempty, z omitzero; kind l slice, m map, b []byte, o struct, none a scalar.",
    " * Messages whose Go type writes its own JSON (Time, Quantity, ...) or is a slice have no entry.",
    " */",
    `export const wireFactsJson: string = ${templateLiteral(json)};`,
    "",
  ].join("\n");
  return {
    content,
    messageCount: kept.length,
    fieldCount: kept.reduce((n, m) => n + m.fields.length, 0),
  };
}

function encodeFact(fact: GoFieldFact): string {
  const flags = `${fact.pointer ? "p" : ""}${fact.omitEmpty ? "e" : ""}${fact.omitZero ? "z" : ""}${kindLetters[fact.kind]}`;
  return fact.json === fact.proto ? flags : `${flags}:${fact.json}`;
}

/** Go and protobuf agree on the fields, their shapes, and on what the codec supports. */
function checkFields(
  type: Protobuf.Type,
  message: GoMessageFacts,
  byName: ReadonlyMap<string, GoMessageFacts>,
): string[] {
  const problems: string[] = [];
  const facts = new Map(message.fields.map((f) => [f.proto, f]));
  for (const field of type.fieldsArray) {
    const where = `${message.name}.${field.name}`;
    const fact = facts.get(field.name);
    if (!fact || fact.number !== field.id) {
      problems.push(`${where} = ${field.id}: no Go field with this protobuf name and number`);
      continue;
    }
    const expected = expectedKinds(field, byName);
    if (!expected.includes(fact.kind)) {
      problems.push(`${where}: Go kind ${fact.kind}, but the descriptor says ${expected.join(" or ")}`);
    }
    if (fact.pointer && fact.kind !== "scalar" && fact.kind !== "struct") {
      problems.push(`${where}: a pointer to a ${fact.kind} is not supported by the codec`);
    }
    if (fact.json === "") {
      const target = byName.get(field.resolvedType?.fullName.slice(1) ?? "");
      if (fact.pointer || fact.kind !== "struct" || !target || target.customJson) {
        problems.push(`${where}: only plain non-pointer structs can be inlined`);
      }
    }
    if (fact.json.includes(":")) problems.push(`${where}: JSON name ${fact.json} contains ":"`);
    if (fact.omitZero && !fact.pointer && fact.kind !== "scalar" && !isCustomStruct(field, byName)) {
      // The codec knows a zero value of these only: a custom-JSON type writes its zero as null.
      problems.push(`${where}: omitzero on a ${fact.kind} is not supported by the codec`);
    }
  }
  const inDescriptor = new Set(type.fieldsArray.map((f) => f.name));
  for (const fact of message.fields) {
    if (!inDescriptor.has(fact.proto)) {
      problems.push(
        `${message.name}: Go field ${fact.goName} (${fact.proto} = ${fact.number}) is not in the descriptor`,
      );
    }
  }
  return problems;
}

function expectedKinds(
  field: Protobuf.Field,
  byName: ReadonlyMap<string, GoMessageFacts>,
): GoFieldFact["kind"][] {
  if (field.map) return ["map"];
  if (field.repeated) return ["slice"];
  const resolved = field.resolve().resolvedType;
  if (resolved instanceof protobuf.Type) {
    return byName.get(resolved.fullName.slice(1))?.goKind === "slice" ? ["slice"] : ["struct"];
  }
  return field.type === "bytes" ? ["bytes"] : ["scalar"];
}

function isCustomStruct(field: Protobuf.Field, byName: ReadonlyMap<string, GoMessageFacts>): boolean {
  const resolved = field.resolve().resolvedType;
  return resolved instanceof protobuf.Type && byName.get(resolved.fullName.slice(1))?.customJson === true;
}

/** Inlined structs must not bring a JSON key the parent has too (Go would drop the deeper one). */
function checkJsonKeys(type: Protobuf.Type, byName: ReadonlyMap<string, GoMessageFacts>): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  const visit = (current: Protobuf.Type, path: string): void => {
    for (const fact of byName.get(current.fullName.slice(1))?.fields ?? []) {
      if (fact.json === "") {
        const inlined = current.fields[fact.proto]?.resolve().resolvedType;
        if (inlined instanceof protobuf.Type) visit(inlined, `${path}.${fact.proto}`);
      } else {
        if (seen.has(fact.json)) problems.push(`${path}: JSON key ${fact.json} appears twice`);
        seen.add(fact.json);
      }
    }
  };
  visit(type, type.fullName.slice(1));
  return problems;
}

function isWrappedList(type: Protobuf.Type): boolean {
  const [only, ...more] = type.fieldsArray;
  return more.length === 0 && only?.name === "items" && only.repeated && !only.resolve().resolvedType;
}
