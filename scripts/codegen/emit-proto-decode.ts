/**
 * generated/proto-decode.ts: one protobuf decoder per message, reading the wire format straight
 * into the JSON form Go's encoding/json writes (field order, JSON names, inlined structs,
 * omitempty/omitzero and pointer rules, Go's merge of repeated singular message fields), with no
 * reflection at run time. The hand-written helpers it calls live in wire/fast-reader.ts.
 */

import { keysOf, shapeOf } from "./emit-proto-shape.js";
import { CodegenError } from "./errors.js";
import type { GoFieldFact, GoMessageFacts } from "./go-field-facts.js";
import { type Protobuf, protobuf } from "./protobufjs.js";
import { type GenerationInfo, header } from "./render.js";
import { compareStrings } from "./shape.js";

export interface EmittedProtoDecode {
  readonly content: string;
  readonly decoderCount: number;
}

/** Messages whose Go type writes its own JSON: runtime function and its arguments (proto fields). */
const specials: Readonly<Record<string, readonly [string, readonly string[], boolean?]>> = {
  "k8s.io.apimachinery.pkg.apis.meta.v1.Time": ["spTime", ["seconds", "nanos"]],
  "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime": ["spMicroTime", ["seconds", "nanos"]],
  "k8s.io.apimachinery.pkg.apis.meta.v1.Duration": ["spDuration", ["duration"]],
  "k8s.io.apimachinery.pkg.util.intstr.IntOrString": ["spIntOrString", ["type", "intVal", "strVal"]],
  "k8s.io.apimachinery.pkg.api.resource.Quantity": ["spQuantity", ["string"]],
  // A Quantity embedded in a struct (it writes the Quantity's JSON); no built-in field holds one.
  "k8s.io.apimachinery.pkg.api.resource.QuantityValue": ["spQuantity", ["string"]],
  "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1": ["spJson", ["Raw"]],
  "k8s.io.apimachinery.pkg.runtime.RawExtension": ["spRawExtension", ["raw"], true],
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON": ["spJson", ["raw"]],
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool": [
    "spOrBool",
    ["allows", "schema"],
  ],
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray": [
    "spOrArray",
    ["schema", "jSONSchemas"],
  ],
  "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray": [
    "spOrStringArray",
    ["schema", "property"],
  ],
};

/** Go replaces a Time's whole value when it appears again; every other message merges. */
const replacedWhole = new Set([
  "k8s.io.apimachinery.pkg.apis.meta.v1.Time",
  "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime",
]);

const wireTypes: Readonly<Record<string, number>> = {
  string: 2,
  bytes: 2,
  bool: 0,
  int32: 0,
  int64: 0,
  double: 1,
};

interface Field {
  readonly id: number;
  readonly name: string;
  readonly repeated: boolean;
  readonly map: boolean;
  readonly scalar: string | undefined;
  readonly message: string | undefined;
  readonly fact: GoFieldFact | undefined;
  readonly listItems: boolean;
}

interface Context {
  readonly index: ReadonlyMap<string, number>;
  /** Raw flavor: int64 exact, bytes as bytes (the fields of a custom-JSON message). */
  readonly raw: boolean;
  /** Bytes are JSON text, read as a string (FieldsV1, apiextensions JSON). */
  readonly jsonText: boolean;
}

export function emitProtoDecode(
  types: ReadonlyMap<string, Protobuf.Type>,
  facts: readonly GoMessageFacts[],
  info: GenerationInfo,
): EmittedProtoDecode {
  const byName = new Map(facts.map((m) => [m.name, m]));
  const names = [...types.keys()].sort(compareStrings);
  const index = new Map(names.map((name, i) => [name, i]));
  const parts: string[] = [];
  for (const name of names) parts.push(emitMessage(name, types, byName, index));
  const registry = names.map((name) => `${JSON.stringify(name)}: d${index.get(name)},`);
  const lists = names.flatMap((name) => {
    const go = byName.get(name);
    if (!go || go.customJson || go.goKind !== "struct") return [];
    const items = fieldsOf(name, types.get(name) as Protobuf.Type, byName).find((f) => f.listItems);
    if (!items?.repeated || items.map || items.message === undefined) return [];
    return [`${JSON.stringify(name)}: [${items.id}, d${index.get(items.message)}],`];
  });
  const content = [
    header(
      info,
      "generated.proto and Go types of k8s.io/api, apimachinery, apiextensions-apiserver, kube-aggregator",
    ),
    "/* eslint-disable */",
    "// biome-ignore-all lint: generated code",
    "import {",
    "  b64, bool, concatReader, type Decoder, dbl, emptyReader, entry, i32, i64, i64j, len, msgEntry, raw, runsPast,",
    "  skip, str, tagOf, tooDeep, unsupported, utf8, type WireReader, withinField, wrongType,",
    '} from "../wire/fast-reader.js";',
    "import {",
    "  spDuration, spIntOrString, spJson, spList, spMicroTime, spOrArray, spOrBool, spOrStringArray, spQuantity,",
    "  spRawExtension, spTime,",
    '} from "../wire/fast-special.js";',
    "",
    "const maxDepth = 512;",
    "",
    ...parts,
    "/** The decoder of every message, by full name. */",
    "export const protoDecoders: Readonly<Record<string, Decoder>> = {",
    ...registry,
    "};",
    "",
    "/** Every list message (ListMeta metadata, repeated message items): its items field and their decoder. */",
    "export const protoListItems: Readonly<Record<string, readonly [number, Decoder]>> = {",
    ...lists,
    "};",
    "",
  ].join("\n");
  return { content, decoderCount: names.length };
}

function fieldsOf(name: string, type: Protobuf.Type, byName: ReadonlyMap<string, GoMessageFacts>): Field[] {
  const message = byName.get(name);
  const facts = message && !message.customJson && message.goKind === "struct" ? message.fields : undefined;
  const isList =
    type.fields.metadata?.resolve().resolvedType?.fullName ===
    ".k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta";
  const ordered = facts ? facts.map((f) => type.fields[f.proto]) : type.fieldsArray;
  return ordered.map((field, i) => {
    if (!field)
      throw new CodegenError("ERR_PROTO_DECODE", `${name}: Go facts name a field the descriptor lacks`);
    field.resolve();
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Enum) throw new CodegenError("ERR_PROTO_DECODE", `${name}: enum field`);
    const scalar = resolved ? undefined : field.type;
    if (scalar !== undefined && wireTypes[scalar] === undefined) {
      throw new CodegenError(
        "ERR_PROTO_DECODE",
        `${name}.${field.name}: scalar type ${scalar} is not supported`,
      );
    }
    if (field instanceof protobuf.MapField && field.keyType !== "string") {
      throw new CodegenError("ERR_PROTO_DECODE", `${name}.${field.name}: map keys must be strings`);
    }
    return {
      id: field.id,
      name: field.name,
      repeated: field.repeated,
      map: field.map,
      scalar,
      message: resolved ? resolved.fullName.slice(1) : undefined,
      fact: facts?.[i],
      listItems: field.name === "items" && isList,
    };
  });
}

function emitMessage(
  name: string,
  types: ReadonlyMap<string, Protobuf.Type>,
  byName: ReadonlyMap<string, GoMessageFacts>,
  index: ReadonlyMap<string, number>,
): string {
  const fields = fieldsOf(name, types.get(name) as Protobuf.Type, byName);
  const go = byName.get(name);
  const wrapped = go?.goKind === "slice";
  const special = specials[name];
  const raw = wrapped || special !== undefined;
  const i = index.get(name) as number;
  if (!raw && (!go || go.customJson)) {
    // Custom JSON without a hand-written decoder: no built-in kind holds one (GroupVersion, ...).
    return [
      `/** ${name} */`,
      `function d${i}(): any {`,
      `  return unsupported(${JSON.stringify(name)});`,
      "}",
      "",
    ].join("\n");
  }
  const ctx: Context = { index, raw, jsonText: special?.[0] === "spJson" };
  const byId = [...fields].sort((a, b) => a.id - b.id);
  const paths = byId.map((f) => `${f.id}: ${JSON.stringify(segmentOf(f))}`).join(", ");
  const struct = !special && !wrapped;
  const lines = [
    ...(struct ? shapeOf(i, keysOf(name, byName, types)) : []),
    `const p${i}: Readonly<Record<number, string>> = { ${paths} };`,
    `/** ${name} */`,
    `function d${i}(r: WireReader, end: number, depth: number, o?: any, av?: string, kd?: string): any {`,
    "  if (depth > maxDepth) tooDeep();",
    ...(byId.length > 0 ? [`  let ${byId.map((f) => `f${f.id}: any`).join(", ")};`] : []),
    ...byId
      .filter((f) => mergesOccurrences(f))
      .map((f) => `  let m${f.id}: Uint8Array[] | undefined; let s${f.id} = 0; let e${f.id} = 0;`),
    "  let tag = 0;",
    "  let at: string | number = -1;",
    "  try {",
    "    while (r.p < end) {",
    // A one-byte tag (fields 1 to 15) is read here; the call is for longer ones and errors.
    "      tag = r.b[r.p] as number;",
    "      if (tag >= 8 && tag < 128) r.p++; else tag = tagOf(r);",
    "      switch (tag >>> 3) {",
    ...byId.map((f) => `        case ${f.id}: { ${readField(f, ctx).join(" ")} break; }`),
    "        default:",
    "          skip(r, tag, end);",
    "      }",
    "    }",
    "    if (r.p !== end) runsPast();",
    ...byId.filter((f) => mergesOccurrences(f) && !isInline(f)).flatMap((f) => mergeField(f, ctx)),
    // A struct's fields are written inside the try (an inlined struct is decoded then).
    ...(struct ? resultOf(name, i, fields, special, ctx).map((l) => `    ${l}`) : []),
    "  } catch (error) {",
    `    throw withinField(error, tag, at, p${i});`,
    "  }",
    ...(struct ? [] : resultOf(name, i, fields, special, ctx).map((l) => `  ${l}`)),
    "}",
    "",
  ];
  return lines.join("\n");
}

function isInline(f: Field): boolean {
  return f.fact?.json === "";
}

function mergeField(f: Field, ctx: Context): string[] {
  return [
    `    if (m${f.id} !== undefined) {`,
    `      tag = ${(f.id << 3) | 2};`,
    `      const c = concatReader(m${f.id}, r.int64);`,
    `      f${f.id} = d${ctx.index.get(f.message as string)}(c, c.b.length, depth + 1);`,
    "    }",
  ];
}

/** The decoded value: a special message's, a wrapped list's, or the object of a struct. */
function resultOf(
  name: string,
  i: number,
  fields: readonly Field[],
  special: (typeof specials)[string] | undefined,
  ctx: Context,
): string[] {
  if (special) {
    const args = special[1].map((proto) => {
      const field = fields.find((f) => f.name === proto);
      if (!field) throw new CodegenError("ERR_PROTO_DECODE", `${name} has no field ${proto}`);
      return `f${field.id}`;
    });
    if (special[2]) args.push("r", "depth");
    return [`return ${special[0]}(${args.join(", ")});`];
  }
  if (ctx.raw) return [`return spList(f${(fields[0] as Field).id});`];
  return [
    `if (o === undefined) { o = new O${i}(); if (av !== undefined) { o.apiVersion = av; o.kind = kd; } }`,
    ...fields.flatMap((f) => writeField(f, ctx)),
    "return o;",
  ];
}

function segmentOf(f: Field): string {
  if (!f.fact) return `.${f.name}`;
  return f.fact.json === "" ? "" : `.${f.fact.json}`;
}

function mergesOccurrences(f: Field): boolean {
  return f.message !== undefined && !f.repeated && !f.map && !replacedWhole.has(f.message);
}

/** Reads one value (of the field, a list element, a map value) into `target` within `end`. */
function readValue(f: Field, ctx: Context, end: string): string {
  if (f.message !== undefined) {
    return `d${ctx.index.get(f.message)}(r, len(r, ${end}), depth + 1)`;
  }
  switch (f.scalar) {
    case "string":
      return `str(r, ${end})`;
    case "bytes":
      if (ctx.jsonText) return `utf8(r, ${end})`;
      return ctx.raw ? `raw(r, ${end})` : `b64(r, ${end})`;
    case "bool":
      return "bool(r)";
    case "int32":
      return "i32(r)";
    case "int64":
      return ctx.raw ? "i64(r)" : "i64j(r)";
    default:
      return "dbl(r)";
  }
}

/** Readers of scalar map values (JSON flavor). */
const mapReaders: Readonly<Record<string, string>> = {
  string: "str",
  bytes: "b64",
  bool: "bool",
  int32: "i32",
  int64: "i64j",
  double: "dbl",
};

function wireTypeOf(f: Field): number {
  return f.message !== undefined ? 2 : (wireTypes[f.scalar as string] as number);
}

function readField(f: Field, ctx: Context): string[] {
  const v = `f${f.id}`;
  const wt = wireTypeOf(f);
  if (f.map) {
    const check = "if ((tag & 7) !== 2) wrongType(tag, 2);";
    if (f.message !== undefined) {
      return [check, `${v} = msgEntry(r, end, ${v}, d${ctx.index.get(f.message)}, depth);`];
    }
    const reader = mapReaders[f.scalar as string];
    if (!reader)
      throw new CodegenError("ERR_PROTO_DECODE", `map values of type ${f.scalar} are not supported`);
    return [check, `${v} = entry(r, end, ${v}, ${(2 << 3) | wt}, ${reader}, ${zeroOf(f, ctx)});`];
  }
  if (f.repeated) {
    // The first element makes a one-element array: `[]` then push would reserve 17 slots.
    const push = [
      `if (${v} === undefined) { at = 0; ${v} = [${readValue(f, ctx, "end")}]; }`,
      `else { at = ${v}.length; ${v}.push(${readValue(f, ctx, "end")}); }`,
      "at = -1;",
    ];
    if (wt === 2) return ["if ((tag & 7) !== 2) wrongType(tag, 2);", ...push];
    return [
      "if ((tag & 7) === 2) {",
      "  const e = len(r, end);",
      `  while (r.p < e) (${v} ??= []).push(${readValue(f, ctx, "e")});`,
      "  if (r.p !== e) runsPast();",
      "} else {",
      `  if ((tag & 7) !== ${wt}) wrongType(tag, ${wt});`,
      ...push.map((l) => `  ${l}`),
      "}",
    ];
  }
  const check = `if ((tag & 7) !== ${wt}) wrongType(tag, ${wt});`;
  if (!mergesOccurrences(f)) return [check, `${v} = ${readValue(f, ctx, "end")};`];
  const decoder = `d${ctx.index.get(f.message as string)}`;
  if (isInline(f)) {
    // Decoded into the parent's object when that is written, at the inlined fields' place.
    return [
      check,
      "const e = len(r, end);",
      `if (${v} === undefined) { s${f.id} = r.p; e${f.id} = e; ${v} = true; }`,
      `else (m${f.id} ??= [r.b.subarray(s${f.id}, e${f.id})]).push(r.b.subarray(r.p, e));`,
      "r.p = e;",
    ];
  }
  return [
    check,
    "const e = len(r, end);",
    `if (${v} === undefined) { s${f.id} = r.p; e${f.id} = e; ${v} = ${decoder}(r, e, depth + 1); }`,
    `else { (m${f.id} ??= [r.b.subarray(s${f.id}, e${f.id})]).push(r.b.subarray(r.p, e)); r.p = e; }`,
  ];
}

/** Go's zero value of one value of the field, in its JSON form. */
function zeroOf(f: Field, ctx: Context): string {
  if (f.message !== undefined) return `d${ctx.index.get(f.message)}(emptyReader, 0, depth + 1)`;
  if (f.scalar === "string" || f.scalar === "bytes") return '""';
  if (f.scalar === "bool") return "false";
  return "0";
}

/** Writes the field into `o` as encoding/json writes the Go field. */
function writeField(f: Field, ctx: Context): string[] {
  const fact = f.fact as GoFieldFact;
  const v = `f${f.id}`;
  const key = `o[${JSON.stringify(fact.json)}]`;
  if (fact.json === "") {
    const decoder = `d${ctx.index.get(f.message as string)}`;
    return [
      `tag = ${(f.id << 3) | 2};`,
      `if (m${f.id} !== undefined) { const c = concatReader(m${f.id}, r.int64); ${decoder}(c, c.b.length, depth + 1, o); }`,
      `else if (${v} !== undefined) { const p = r.p; r.p = s${f.id}; ${decoder}(r, e${f.id}, depth + 1, o); r.p = p; }`,
      `else ${decoder}(emptyReader, 0, depth + 1, o);`,
    ];
  }
  const nil = f.listItems ? `${key} = [];` : !fact.omitEmpty && !fact.omitZero ? `${key} = null;` : undefined;
  if (f.map || f.repeated) {
    // Protobuf cannot tell an empty list or map from nil; Go decodes both as nil. A list pushed
    // to has spare slots: a copy holds just its elements.
    const list = f.map ? v : `(${v}.length > 1 ? ${v}.slice() : ${v})`;
    return nil
      ? [`if (${v} !== undefined) ${key} = ${list}; else ${nil}`]
      : [`if (${v} !== undefined) ${key} = ${list};`];
  }
  const absentIsNil = fact.pointer || fact.kind === "slice" || fact.kind === "bytes";
  const value = absentIsNil ? v : `(${v} ?? ${zeroOf(f, ctx)})`;
  const kept = fact.pointer ? undefined : keptCondition(f, fact, "x");
  const write = kept ? `{ const x = ${value}; if (${kept}) ${key} = x; }` : `${key} = ${value};`;
  if (!absentIsNil) return [write];
  return nil ? [`if (${v} === undefined) ${nil} else ${write}`] : [`if (${v} !== undefined) ${write}`];
}

/** The condition under which omitempty/omitzero keep a set non-pointer value; undefined: always. */
function keptCondition(f: Field, fact: GoFieldFact, x: string): string | undefined {
  if (fact.kind === "scalar") {
    if (!fact.omitEmpty && !fact.omitZero) return undefined;
    if (f.scalar === "string") return `${x} !== ""`;
    if (f.scalar === "bool") return `${x} !== false`;
    return `${x} !== 0`;
  }
  if (fact.kind === "struct") return fact.omitZero ? `${x} !== null` : undefined;
  return fact.omitEmpty ? `${x} !== "" && !(Array.isArray(${x}) && ${x}.length === 0)` : undefined;
}
