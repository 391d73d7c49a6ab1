/**
 * Size bounds of values for the cost estimate: how long a string, list or map
 * may be. Statically they come from maxLength/maxItems/maxProperties, or, when
 * the schema sets none, from the largest request the apiserver accepts (3 MiB)
 * divided by the smallest JSON the element can be written as, as upstream
 * estimates; at evaluation time they are measured on the value itself.
 */
import {
  additionalPropertiesOf,
  isEmbeddedResource,
  isObject,
  itemsOf,
  type JsonSchema,
  propertiesOf,
} from "../crd/json-schema.js";
import { celFieldName } from "./escaping.js";

/** The largest request body the apiserver accepts, which bounds every unbounded size. */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

export interface Shape {
  /** Maximum length (strings, bytes), items (lists) or entries (maps). */
  readonly size: number;
  /** The shape of list items or map values. */
  readonly elem?: Shape;
  /** Object fields by their CEL name. */
  readonly fields?: Readonly<Record<string, Shape>>;
  /** Measured on a value (not bounded by a schema): a field it lacks is absent, not unbounded. */
  readonly measured?: boolean;
  /** The shape of a measured map's keys (the longest). */
  readonly key?: Shape;
  /** A map: `in` looks a key up instead of walking the items. */
  readonly map?: boolean;
  /** A library value (IP, CIDR, semver, quantity, URL), which cel-go gives no size. */
  readonly opaque?: boolean;
}

/** What an absent field of a measured value weighs. */
export const ABSENT: Shape = { size: 0, measured: true };

/** What nothing is known about: as long as a request allows. */
export const UNKNOWN: Shape = { size: MAX_REQUEST_BYTES };

/** The fewest bytes a value of the schema can be serialized in (upstream's minimum sizes). */
function minJsonSize(s: JsonSchema | undefined): number {
  switch (s?.type) {
    case "boolean":
      return 4;
    case "integer":
    case "number":
      return 1;
    default:
      return 2; // "" or [] or {}
  }
}

const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);

const META_STRING: Shape = { size: MAX_REQUEST_BYTES - 2 };

/** The shape of a resource root or embedded resource: its fields plus apiVersion, kind and metadata. */
export function shapeWithMeta(s: JsonSchema): Shape {
  const own = shapeOfSchema(s, false);
  return {
    size: own.size + 3,
    fields: {
      ...own.fields,
      apiVersion: META_STRING,
      kind: META_STRING,
      metadata: { size: 2, fields: { name: META_STRING, generateName: META_STRING } },
    },
  };
}

/** The static shape of a schema node. */
export function shapeOfSchema(s: JsonSchema | undefined, embeddedMeta = true): Shape {
  if (s && embeddedMeta && isEmbeddedResource(s)) return shapeWithMeta(s);
  if (!s) return UNKNOWN;
  const items = itemsOf(s);
  if (s.type === "array") {
    const max = num(s.maxItems) ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minJsonSize(items) + 1));
    return { size: max, elem: shapeOfSchema(items) };
  }
  if (s.type === "string") return { size: num(s.maxLength) ?? MAX_REQUEST_BYTES - 2 };
  const additional = additionalPropertiesOf(s);
  if (additional) {
    const max = num(s.maxProperties) ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minJsonSize(additional) + 4));
    return { size: max, elem: shapeOfSchema(additional), map: true };
  }
  const props = propertiesOf(s);
  if (Object.keys(props).length > 0) {
    const fields: Record<string, Shape> = {};
    for (const [k, p] of Object.entries(props)) {
      const cel = celFieldName(k);
      if (cel !== undefined) fields[cel] = shapeOfSchema(p);
    }
    return { size: Object.keys(props).length, fields };
  }
  return s.type === "integer" || s.type === "number" || s.type === "boolean" ? { size: 1 } : UNKNOWN;
}

/** The larger of two shapes, field by field and element by element (as measured: bounded). */
export function maxShape(a: Shape | undefined, b: Shape): Shape {
  if (!a) return b;
  const elem = a.elem && b.elem ? maxShape(a.elem, b.elem) : (a.elem ?? b.elem);
  const fields = a.fields || b.fields ? { ...a.fields, ...b.fields } : undefined;
  const key = a.key && b.key ? maxShape(a.key, b.key) : (a.key ?? b.key);
  return {
    size: Math.max(a.size, b.size),
    ...(elem ? { elem } : {}),
    ...(key ? { key } : {}),
    ...(fields ? { fields } : {}),
    measured: true,
  };
}

/** The measured shape of a decoded JSON value (lists and maps: the largest element). */
export function shapeOfValue(v: unknown): Shape {
  if (typeof v === "string") return { size: v.length, measured: true };
  if (Array.isArray(v)) {
    let elem: Shape | undefined;
    for (const x of v) elem = maxShape(elem, shapeOfValue(x));
    return { size: v.length, elem: elem ?? ABSENT, measured: true };
  }
  if (isObject(v)) {
    let elem: Shape | undefined;
    let longest = 0;
    const fields: Record<string, Shape> = {};
    for (const [k, x] of Object.entries(v)) {
      const s = shapeOfValue(x);
      elem = maxShape(elem, s);
      longest = Math.max(longest, k.length);
      const cel = celFieldName(k);
      if (cel !== undefined) fields[cel] = s;
    }
    const key: Shape = { size: longest, measured: true };
    return { size: Object.keys(v).length, elem: elem ?? ABSENT, key, fields, measured: true, map: true };
  }
  return { size: 1, measured: true };
}
