/**
 * Turns the JSON Schema a TypeBox type describes into the structural OpenAPI v3 schema a
 * CustomResourceDefinition carries (docs/guides/custom-resources.md lists the mapping):
 * `const` and unions of literals become `enum`, a union with `null` becomes `nullable`,
 * integer-or-string becomes `x-kubernetes-int-or-string`, records become `additionalProperties`,
 * and a schema that says nothing about its value keeps unknown fields. A node that still has no
 * type is not structural: the API server would refuse the CRD, so it is refused here, with its path.
 */
import type { apiextensionsV1 } from "@kubesdk/models";
import { ClientError } from "../errors.js";

export type JsonSchemaProps = apiextensionsV1.JSONSchemaProps;
type Node = Record<string, unknown>;

// Keys of JSONSchemaProps a structural schema may carry besides the ones rewritten below.
const KEPT = new Set([
  "description",
  "title",
  "default",
  "example",
  "format",
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "multipleOf",
  "maxProperties",
  "minProperties",
  "enum",
  "nullable",
  "type",
  "required",
  "externalDocs",
]);
const SKIPPED = new Set(["$id", "$schema", "~kind", "examples", "const", "anyOf", "patternProperties"]);

const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The structural schema of a TypeBox (or plain JSON Schema) type; `path` names it in errors. */
export function toStructuralSchema(schema: unknown, path = "schema"): JsonSchemaProps {
  // TypeBox keeps its own markers on non-enumerable keys; a JSON copy leaves plain data.
  const plain: unknown = JSON.parse(JSON.stringify(schema ?? {}));
  if (!isNode(plain)) throw invalid(path, "is not a schema object");
  return convert(plain, path) as JsonSchemaProps;
}

function convert(input: Node, path: string): Node {
  const node = collapseUnion(input, path);
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith("x-kubernetes-") || KEPT.has(key)) out[key] = value;
    else if (!SKIPPED.has(key) && !["properties", "items", "additionalProperties"].includes(key))
      throw invalid(path, `has "${key}", which a CRD schema cannot carry`);
  }
  if (node.const !== undefined) out.enum = [node.const];
  if (Array.isArray(out.enum) && out.type === undefined) out.type = typeOfValues(out.enum, path);
  // JSON Schema 2020-12 writes exclusive bounds as numbers; OpenAPI v3.0 as a flag beside the bound.
  for (const [bound, flag] of [
    ["minimum", "exclusiveMinimum"],
    ["maximum", "exclusiveMaximum"],
  ] as const) {
    if (typeof node[flag] === "number") {
      out[bound] = node[flag];
      out[flag] = true;
    }
  }
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  if (isNode(node.properties) && Object.keys(node.properties).length > 0) {
    const properties: Node = {};
    for (const [name, child] of Object.entries(node.properties))
      properties[name] = convert(asNode(child, `${path}.${name}`), `${path}.${name}`);
    out.properties = properties;
  }
  const additional = additionalOf(node);
  if (isNode(additional)) out.additionalProperties = convert(additional, `${path}[*]`);
  else if (additional === true) out["x-kubernetes-preserve-unknown-fields"] = true;
  if (node.items !== undefined) out.items = convert(asNode(node.items, `${path}[]`), `${path}[]`);
  return finish(out, path);
}

/** `additionalProperties`, or the value schema of a record (TypeBox writes `patternProperties`). */
function additionalOf(node: Node): unknown {
  if (node.additionalProperties !== undefined && node.additionalProperties !== false)
    return node.additionalProperties;
  if (!isNode(node.patternProperties)) return undefined;
  const patterns = Object.values(node.patternProperties);
  return patterns.length === 1 ? patterns[0] : undefined;
}

/** Rewrites `anyOf` into the forms a structural schema has; other unions are not structural. */
function collapseUnion(node: Node, path: string): Node {
  if (!Array.isArray(node.anyOf)) return node;
  const { anyOf, ...outer } = node;
  const members = (anyOf as unknown[]).map((m, i) => asNode(m, `${path}.anyOf[${i}]`));
  const nonNull = members.filter((m) => m.type !== "null");
  const nullable = nonNull.length < members.length ? { nullable: true } : {};
  const types = new Set(nonNull.map((m) => m.type));
  if (nonNull.length === 1) return { ...nonNull[0], ...outer, ...nullable };
  if (nonNull.length > 0 && nonNull.every((m) => m.const !== undefined || Array.isArray(m.enum))) {
    const values = nonNull.flatMap((m) => (m.const !== undefined ? [m.const] : (m.enum as unknown[])));
    const type = types.size === 1 ? [...types][0] : undefined;
    return { ...(type !== undefined ? { type } : {}), enum: values, ...outer, ...nullable };
  }
  if (nonNull.length === 2 && types.has("integer") && types.has("string"))
    return { "x-kubernetes-int-or-string": true, ...outer, ...nullable };
  throw invalid(path, "is a union of several types, which a structural schema cannot express");
}

function finish(out: Node, path: string): Node {
  const typed =
    out.type !== undefined ||
    out["x-kubernetes-int-or-string"] === true ||
    out["x-kubernetes-preserve-unknown-fields"] === true;
  if (typed) return out;
  // A schema that constrains nothing (Type.Unknown) keeps whatever it is given.
  const constraints = Object.keys(out).filter(
    (k) => !["description", "title", "default", "example"].includes(k),
  );
  if (constraints.length === 0) return { ...out, "x-kubernetes-preserve-unknown-fields": true };
  throw invalid(path, "has no type");
}

function typeOfValues(values: unknown[], path: string): string {
  const types = new Set(
    values
      .filter((v) => v !== null)
      .map((v) => (Number.isInteger(v) ? "integer" : Array.isArray(v) ? "array" : typeof v)),
  );
  if (types.size === 1) return [...types][0] === "bigint" ? "integer" : ([...types][0] as string);
  if (types.size === 2 && types.has("integer") && types.has("number")) return "number";
  throw invalid(path, "has an enum mixing value types");
}

function asNode(value: unknown, path: string): Node {
  if (isNode(value)) return value;
  throw invalid(path, "is not a schema object");
}

function invalid(path: string, what: string): ClientError {
  return new ClientError("INVALID_SCHEMA", `custom resource schema: ${path} ${what}`);
}
