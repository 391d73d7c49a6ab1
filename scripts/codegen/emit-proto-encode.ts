/**
 * generated/proto-encode.ts: one protobuf encoder per message, writing the bytes Go's protobuf code
 * writes for the struct encoding/json reads from an object's JSON form (fields by number, every
 * non-pointer field even when zero, pointers, slices and maps only when set, map entries in Go's
 * key order), with no reflection at run time. The hand-written helpers live in wire/fast-writer.ts.
 */
import { CodegenError } from "./errors.js";
import type { GoFieldFact, GoMessageFacts } from "./go-field-facts.js";
import type { Protobuf } from "./protobufjs.js";
import { type GenerationInfo, header } from "./render.js";
import { compareStrings } from "./shape.js";

/** Messages whose Go type reads its own JSON: the runtime call writing their fields. */
const specials: Readonly<Record<string, string>> = {
  "k8s.io.apimachinery.pkg.apis.meta.v1.Time": "encTime(w, v, false)",
  "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime": "encTime(w, v, true)",
  "k8s.io.apimachinery.pkg.apis.meta.v1.Duration": "encDuration(w, v)",
  "k8s.io.apimachinery.pkg.util.intstr.IntOrString": "encIntOrString(w, v)",
  "k8s.io.apimachinery.pkg.api.resource.Quantity": "encQuantity(w, v)",
  "k8s.io.apimachinery.pkg.api.resource.QuantityValue": "encQuantity(w, v)",
  "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1": "encEmbedded(w, v)",
  "k8s.io.apimachinery.pkg.runtime.RawExtension": "encEmbedded(w, v)",
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON": "encEmbedded(w, v)",
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool":
    "encOrBool(w, v, depth, SCHEMA)",
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray":
    "encOrArray(w, v, depth, SCHEMA)",
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray":
    "encOrStringArray(w, v, depth, SCHEMA)",
};
const schemaMessage = "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps";

/** The field writer of each scalar type (tag, then value; null or undefined: zero) and its wire type. */
const writers: Readonly<Record<string, readonly [string, number]>> = {
  string: ["fStr", 2],
  bytes: ["fBytes", 2],
  bool: ["fBool", 0],
  int32: ["fI32", 0],
  int64: ["fI64", 0],
  double: ["fDbl", 1],
};

export function emitProtoEncode(
  types: ReadonlyMap<string, Protobuf.Type>,
  facts: readonly GoMessageFacts[],
  info: GenerationInfo,
): string {
  const byName = new Map(facts.map((m) => [m.name, m]));
  const names = [...types.keys()].sort(compareStrings);
  const index = new Map(names.map((name, i) => [name, i]));
  const parts = names.map((name) => emitMessage(name, types.get(name) as Protobuf.Type, byName, index));
  return [
    header(
      info,
      "generated.proto and Go types of k8s.io/api, apimachinery, apiextensions-apiserver, kube-aggregator",
    ),
    "// biome-ignore-all lint: generated code",
    "import {",
    "  encDuration, encEmbedded, encIntOrString, encList, encOrArray, encOrBool, encOrStringArray, encQuantity,",
    "  encTime,",
    '} from "../wire/fast-write-special.js";',
    "import {",
    "  fBool, fBytes, fDbl, fI32, fI64, fStr, mapEntries, notAnArray, notAnObject, tooDeepToEncode, type WireWriter,",
    '} from "../wire/fast-writer.js";',
    'import { withinField } from "../wire/fast-reader.js";',
    "",
    "const maxDepth = 512;",
    "",
    ...parts,
    "/** The encoder of every message, by full name: writes the fields of `v` (null: the zero value). */",
    "export const protoEncoders: Readonly<Record<string, (w: WireWriter, v: unknown, depth: number) => void>> = {",
    ...names.map((name) => `${JSON.stringify(name)}: e${index.get(name)},`),
    "};",
    "",
  ].join("\n");
}

interface Field {
  readonly field: Protobuf.Field;
  readonly fact: GoFieldFact;
  readonly message: string | undefined;
}

function emitMessage(
  name: string,
  type: Protobuf.Type,
  byName: ReadonlyMap<string, GoMessageFacts>,
  index: ReadonlyMap<string, number>,
): string {
  const i = index.get(name) as number;
  const head = [`/** ${name} */`, `function e${i}(w: WireWriter, v: any, depth: number): void {`];
  const special = specials[name];
  const go = byName.get(name);
  if (special) {
    const call = special.replace("SCHEMA", `e${index.get(schemaMessage)}`);
    return [...head, "  if (depth >= maxDepth) tooDeepToEncode();", `  ${call};`, "}", ""].join("\n");
  }
  if (go?.goKind === "slice") {
    const [only] = type.fieldsArray;
    if (only?.id !== 1 || only.type !== "string") {
      throw new CodegenError(
        "ERR_PROTO_ENCODE",
        `${name}: a wrapped list other than repeated string items = 1`,
      );
    }
    return [...head, "  if (depth >= maxDepth) tooDeepToEncode();", "  encList(w, v);", "}", ""].join("\n");
  }
  if (!go || go.customJson) {
    return [
      ...head,
      `  throw new TypeError(${JSON.stringify(`${name} has a custom JSON form the codec does not support`)});`,
      "}",
      "",
    ].join("\n");
  }
  const facts = new Map(go.fields.map((f) => [f.proto, f]));
  const fields: Field[] = [...type.fieldsArray]
    .sort((a, b) => a.id - b.id)
    .map((field) => {
      field.resolve();
      if (field.packed && field.repeated && !field.resolvedType) {
        throw new CodegenError("ERR_PROTO_ENCODE", `${name}.${field.name}: packed fields are not supported`);
      }
      const fact = facts.get(field.name);
      if (!fact) throw new CodegenError("ERR_PROTO_ENCODE", `${name}.${field.name}: no Go facts`);
      const message = field.resolvedType ? field.resolvedType.fullName.slice(1) : undefined;
      return { field, fact, message };
    });
  const paths = fields.map(
    (f) => `${f.field.id}: ${JSON.stringify(f.fact.json === "" ? "" : `.${f.fact.json}`)}`,
  );
  return [
    `const q${i}: Readonly<Record<number, string>> = { ${paths.join(", ")} };`,
    ...head,
    "  if (depth >= maxDepth) tooDeepToEncode();",
    "  if (v === null) v = {};",
    "  else if (typeof v !== 'object' || Array.isArray(v)) notAnObject(v);",
    "  let x: any;",
    "  let tag = 0;",
    "  let at: string | number = -1;",
    "  try {",
    ...fields.map((f) => `    ${writeField(f, index).join(" ")}`),
    "  } catch (error) {",
    `    throw withinField(error, tag, at, q${i});`,
    "  }",
    "}",
    "",
  ].join("\n");
}

/** Writes one value with its tag (null is the zero value; undefined too for scalars). */
function writeValue(f: Field, index: ReadonlyMap<string, number>, value: string): string[] {
  const tag = tagOf(f);
  if (f.message !== undefined) {
    return [`{ const s = w.field(${tag}); e${index.get(f.message)}(w, ${value}, depth + 1); w.end(s); }`];
  }
  const [writer] = writers[f.field.type] ?? [];
  if (!writer) throw new CodegenError("ERR_PROTO_ENCODE", `scalar type ${f.field.type} is not supported`);
  return [`${writer}(w, ${tag}, ${value});`];
}

function tagOf(f: Field): number {
  const wireType = f.message !== undefined ? 2 : (writers[f.field.type]?.[1] as number);
  return ((f.field.id << 3) | wireType) >>> 0;
}

function writeField(f: Field, index: ReadonlyMap<string, number>): string[] {
  const { fact, field } = f;
  const lines = [`tag = ${(field.id << 3) | 2};`];
  if (fact.json === "") {
    return [...lines, ...writeValue(f, index, "v")];
  }
  lines.push(`x = v[${JSON.stringify(fact.json)}];`);
  if (field.map) {
    const entry =
      f.message !== undefined
        ? `{ const s2 = w.field(18); e${index.get(f.message)}(w, kv[j + 1] ?? null, depth + 1); w.end(s2); }`
        : `${writers[field.type]?.[0]}(w, ${16 | (writers[field.type]?.[1] as number)}, kv[j + 1]);`;
    return [
      ...lines,
      "if (x !== undefined && x !== null) {",
      "  const kv = mapEntries(x);",
      "  for (let j = 0; j < kv.length; j += 2) {",
      "    at = kv[j] as string;",
      `    const s = w.field(${((field.id << 3) | 2) >>> 0});`,
      "    fStr(w, 10, kv[j]);",
      `    ${entry}`,
      "    w.end(s);",
      "  }",
      "  at = -1;",
      "}",
    ];
  }
  if (field.repeated) {
    return [
      ...lines,
      "if (x !== undefined && x !== null) {",
      "  if (!Array.isArray(x)) notAnArray(x);",
      "  for (let i = 0; i < x.length; i++) {",
      "    at = i;",
      ...writeValue(f, index, f.message !== undefined ? "(x[i] ?? null)" : "x[i]").map((l) => `    ${l}`),
      "  }",
      "  at = -1;",
      "}",
    ];
  }
  const nilWhenUnset = fact.pointer || fact.kind === "slice" || fact.kind === "map" || fact.kind === "bytes";
  if (nilWhenUnset) {
    return [
      ...lines,
      "if (x !== undefined && x !== null) {",
      ...writeValue(f, index, "x").map((l) => `  ${l}`),
      "}",
    ];
  }
  if (f.message === undefined) return [...lines, ...writeValue(f, index, "x")];
  return [...lines, "if (x === undefined) x = null;", ...writeValue(f, index, "x")];
}
