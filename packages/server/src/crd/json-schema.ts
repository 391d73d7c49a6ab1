/**
 * A read-only view of a CRD's openAPIV3Schema (apiextensions v1
 * JSONSchemaProps) as it arrives in a request: untrusted JSON, so every
 * accessor checks the shape instead of trusting the generated type.
 */
import type { apiextensionsV1 } from "@kubesdk/models";

export type JsonSchema = apiextensionsV1.JSONSchemaProps & Record<string, unknown>;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export function asSchema(v: unknown): JsonSchema | undefined {
  return isObject(v) ? (v as JsonSchema) : undefined;
}

/**
 * The schema-valued entries of `properties`. Read-only: the result is cached per properties
 * object, since a schema's checks, defaulting and pruning ask for it again and again and copying
 * 20,000 properties each time made large schemas slow.
 */
export function propertiesOf(s: JsonSchema | undefined): Readonly<Record<string, JsonSchema>> {
  const p = s?.properties;
  if (!isObject(p)) return {};
  const cached = propertiesCache.get(p);
  if (cached) return cached;
  const out: Record<string, JsonSchema> = {};
  for (const [k, v] of Object.entries(p)) {
    const child = asSchema(v);
    if (child) out[k] = child;
  }
  propertiesCache.set(p, out);
  return out;
}
const propertiesCache = new WeakMap<object, Record<string, JsonSchema>>();

/** The item schema of an array schema (a schema object, never the tuple form). */
export function itemsOf(s: JsonSchema | undefined): JsonSchema | undefined {
  return asSchema(s?.items);
}

/** additionalProperties as a schema; `true` counts as an empty schema, `false`/absent as none. */
export function additionalPropertiesOf(s: JsonSchema | undefined): JsonSchema | undefined {
  const a = s?.additionalProperties;
  if (a === true) return {} as JsonSchema;
  return asSchema(a);
}

export const preservesUnknown = (s: JsonSchema | undefined): boolean =>
  s?.["x-kubernetes-preserve-unknown-fields"] === true;
export const isEmbeddedResource = (s: JsonSchema | undefined): boolean =>
  s?.["x-kubernetes-embedded-resource"] === true;
export const isIntOrString = (s: JsonSchema | undefined): boolean =>
  s?.["x-kubernetes-int-or-string"] === true;

/** Follows a dotted path of property names (`spec.replicas`) through properties. */
export function schemaAt(root: JsonSchema | undefined, path: readonly string[]): JsonSchema | undefined {
  let cur = root;
  for (const seg of path) {
    if (!cur) return undefined;
    cur = propertiesOf(cur)[seg] ?? additionalPropertiesOf(cur);
  }
  return cur;
}

/** Appends a property name or list index to a field path the way apimachinery prints it. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

/** The value validations of lengths, patterns, counts and required properties (both dialects spell them alike). */
export const SIZE_AND_PATTERN_KEYWORDS = [
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "multipleOf",
  "required",
] as const;
