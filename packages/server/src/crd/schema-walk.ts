/**
 * Validates a value against a CRD schema (in the form toAjvSchema makes) by walking schema and
 * value together, instead of generating and compiling a JavaScript function per schema as ajv
 * does. ajv's code generation costs seconds for a schema of 20,000 properties, all of it on the
 * event loop; here "compiling" is a linear walk (patterns and enum sets made once, on first use),
 * and validating costs what the value's size costs.
 *
 * The failures are reported as ajv reported them (same keywords, params, order under
 * `allErrors`), so validator.ts translates them to upstream's field errors unchanged. The order
 * is ajv's: an up-front type check, then keyword groups (untyped: enum, not, anyOf, oneOf,
 * allOf; number; string; array; object), each group guarded by its type.
 */
import { compileGoRegexp, type GoRegexp } from "./go-regexp.js";

export type WalkSchema = Readonly<Record<string, unknown>>;

/** One failure in ajv's ErrorObject shape (the fields validator.ts reads). */
export interface Failure {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly data: unknown;
  readonly parentSchema: WalkSchema;
}

export type FormatCheck = (s: string) => boolean;

type Group = "number" | "string" | "array" | "object";
const GROUP_KEYWORDS: Readonly<Record<Group, readonly string[]>> = {
  number: ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"],
  string: ["maxLength", "minLength", "pattern", "format"],
  array: ["maxItems", "minItems", "items", "uniqueItems"],
  object: ["maxProperties", "minProperties", "required", "additionalProperties", "properties"],
};
const GROUPS = Object.keys(GROUP_KEYWORDS) as Group[];
const VALIDATING = new Set([
  "type",
  "enum",
  "not",
  "anyOf",
  "oneOf",
  "allOf",
  ...Object.values(GROUP_KEYWORDS).flat(),
]);

const LIMITS: Readonly<Record<string, [string, (d: number, l: number) => boolean]>> = {
  maximum: ["<=", (d, l) => d > l],
  minimum: [">=", (d, l) => d < l],
  exclusiveMaximum: ["<", (d, l) => d >= l],
  exclusiveMinimum: [">", (d, l) => d <= l],
};

/** Per-schema facts made once: the pattern, the enum's primitive members. */
const patterns = new WeakMap<WalkSchema, GoRegexp>();
const enumSets = new WeakMap<WalkSchema, Set<unknown>>();

export class SchemaWalker {
  private errors: Failure[] = [];
  constructor(private readonly formats: ReadonlyMap<string, FormatCheck>) {}

  /** Every failure of `data` against `schema`, in ajv's order. */
  validate(schema: WalkSchema, data: unknown): Failure[] {
    this.errors = [];
    this.walk(schema, data, "");
    return this.errors;
  }

  private fail(
    schema: WalkSchema,
    keyword: string,
    path: string,
    data: unknown,
    params: Record<string, unknown>,
  ) {
    this.errors.push({ keyword, instancePath: path, params, data, parentSchema: schema });
  }

  private walk(s: WalkSchema, d: unknown, path: string): void {
    const types = typesOf(s);
    const single = types.length === 1 ? types[0] : undefined;
    const deferred = single !== undefined && single in GROUP_KEYWORDS && hasGroup(s, single as Group);
    if (types.length > 0 && !deferred && !types.some((t) => isType(t, d)))
      this.fail(s, "type", path, d, { type: types.join(",") });
    this.untyped(s, d, path);
    for (const g of GROUPS) {
      if (!hasGroup(s, g)) continue;
      if (isType(g, d)) this.group(g, s, d, path);
      else if (deferred && single === g) this.fail(s, "type", path, d, { type: g });
    }
  }

  private untyped(s: WalkSchema, d: unknown, path: string): void {
    if (Array.isArray(s.enum) && !inEnum(s, d)) this.fail(s, "enum", path, d, { allowedValues: s.enum });
    if (isSchema(s.not) && this.passes(s.not, d, path)) this.fail(s, "not", path, d, {});
    if (Array.isArray(s.anyOf)) this.anyOf(s, s.anyOf as WalkSchema[], d, path);
    if (Array.isArray(s.oneOf)) this.oneOf(s, s.oneOf as WalkSchema[], d, path);
    if (Array.isArray(s.allOf)) for (const sub of s.allOf as WalkSchema[]) this.walk(sub, d, path);
  }

  /** Whether `d` passes `s`, leaving no failures behind. */
  private passes(s: WalkSchema, d: unknown, path: string): boolean {
    const before = this.errors.length;
    this.walk(s, d, path);
    const ok = this.errors.length === before;
    this.errors.length = before;
    return ok;
  }

  /** ajv stops at the first passing branch and then drops the failed branches' failures. */
  private anyOf(s: WalkSchema, list: readonly WalkSchema[], d: unknown, path: string): void {
    if (list.some(alwaysValid)) return;
    const before = this.errors.length;
    for (const sub of list) {
      const at = this.errors.length;
      this.walk(sub, d, path);
      if (this.errors.length === at) {
        this.errors.length = before;
        return;
      }
    }
    this.fail(s, "anyOf", path, d, {});
  }

  /** ajv's oneOf, including how it tracks passing branches (a third pass turns valid again). */
  private oneOf(s: WalkSchema, list: readonly WalkSchema[], d: unknown, path: string): void {
    const before = this.errors.length;
    let valid = false;
    let passing: unknown = null;
    list.forEach((sub, i) => {
      const at = this.errors.length;
      this.walk(sub, d, path);
      const ok = this.errors.length === at;
      if (i > 0 && ok && valid) {
        valid = false;
        passing = [passing, i];
      } else if (ok) {
        valid = true;
        passing = i;
      }
    });
    if (valid) this.errors.length = before;
    else this.fail(s, "oneOf", path, d, { passingSchemas: passing });
  }

  private group(g: Group, s: WalkSchema, d: unknown, path: string): void {
    if (g === "number") this.numberKeywords(s, d as number, path);
    else if (g === "string") this.stringKeywords(s, d as string, path);
    else if (g === "array") this.arrayKeywords(s, d as unknown[], path);
    else this.objectKeywords(s, d as Record<string, unknown>, path);
  }

  private numberKeywords(s: WalkSchema, d: number, path: string): void {
    for (const [k, [comparison, fails]] of Object.entries(LIMITS)) {
      const limit = s[k];
      if (typeof limit === "number" && (fails(d, limit) || Number.isNaN(d)))
        this.fail(s, k, path, d, { comparison, limit });
    }
    const m = s.multipleOf;
    if (typeof m === "number") {
      const r = d / m;
      if (r !== Number.parseInt(String(r), 10)) this.fail(s, "multipleOf", path, d, { multipleOf: m });
    }
  }

  private stringKeywords(s: WalkSchema, d: string, path: string): void {
    const length = s.maxLength !== undefined || s.minLength !== undefined ? codePoints(d) : 0;
    if (typeof s.maxLength === "number" && length > s.maxLength)
      this.fail(s, "maxLength", path, d, { limit: s.maxLength });
    if (typeof s.minLength === "number" && length < s.minLength)
      this.fail(s, "minLength", path, d, { limit: s.minLength });
    if (typeof s.pattern === "string" && !patternOf(s).test(d))
      this.fail(s, "pattern", path, d, { pattern: s.pattern });
    const check = typeof s.format === "string" ? this.formats.get(s.format) : undefined;
    if (check && !check(d)) this.fail(s, "format", path, d, { format: s.format });
  }

  private arrayKeywords(s: WalkSchema, d: unknown[], path: string): void {
    if (typeof s.maxItems === "number" && d.length > s.maxItems)
      this.fail(s, "maxItems", path, d, { limit: s.maxItems });
    if (typeof s.minItems === "number" && d.length < s.minItems)
      this.fail(s, "minItems", path, d, { limit: s.minItems });
    if (isSchema(s.items)) for (let i = 0; i < d.length; i++) this.walk(s.items, d[i], `${path}/${i}`);
    if (s.uniqueItems === true) {
      const dup = duplicate(d);
      if (dup) this.fail(s, "uniqueItems", path, d, { i: dup[1], j: dup[0] });
    }
  }

  private objectKeywords(s: WalkSchema, d: Record<string, unknown>, path: string): void {
    const size = s.maxProperties !== undefined || s.minProperties !== undefined ? Object.keys(d).length : 0;
    if (typeof s.maxProperties === "number" && size > s.maxProperties)
      this.fail(s, "maxProperties", path, d, { limit: s.maxProperties });
    if (typeof s.minProperties === "number" && size < s.minProperties)
      this.fail(s, "minProperties", path, d, { limit: s.minProperties });
    if (Array.isArray(s.required))
      for (const p of s.required as string[])
        if (!has(d, p)) this.fail(s, "required", path, d, { missingProperty: p });
    const props = (isSchema(s.properties) ? s.properties : {}) as Record<string, WalkSchema>;
    const additional = s.additionalProperties;
    if (additional === false || isSchema(additional))
      for (const k of Object.keys(d)) {
        if (Object.hasOwn(props, k)) continue;
        const at = `${path}/${escapePointer(k)}`;
        if (additional === false) this.fail(s, "additionalProperties", path, d, { additionalProperty: k });
        else this.walk(additional, d[k], at);
      }
    for (const k of Object.keys(props))
      if (has(d, k)) this.walk(props[k] as WalkSchema, d[k], `${path}/${escapePointer(k)}`);
  }
}

/**
 * Checks what would make a schema unusable before any value is validated: every pattern must
 * compile as Go's regexp and every enum must be non-empty. Throws the engine's error.
 */
export function prepareSchema(s: WalkSchema): void {
  if (typeof s.pattern === "string") patternOf(s);
  if (Array.isArray(s.enum) && s.enum.length === 0) throw new Error("enum must have non-empty array");
  for (const k of ["items", "additionalProperties", "not"]) if (isSchema(s[k])) prepareSchema(s[k]);
  if (isSchema(s.properties)) for (const p of Object.values(s.properties)) prepareSchema(p as WalkSchema);
  for (const k of ["allOf", "anyOf", "oneOf"])
    if (Array.isArray(s[k])) for (const sub of s[k] as WalkSchema[]) prepareSchema(sub);
}

const isSchema = (v: unknown): v is WalkSchema => typeof v === "object" && v !== null && !Array.isArray(v);
const has = (d: Record<string, unknown>, k: string) => Object.hasOwn(d, k) && d[k] !== undefined;
const escapePointer = (k: string) => k.replaceAll("~", "~0").replaceAll("/", "~1");

function typesOf(s: WalkSchema): string[] {
  const t = s.type;
  const types = typeof t === "string" ? [t] : Array.isArray(t) ? (t as string[]) : [];
  return s.nullable === true && types.length > 0 && !types.includes("null") ? [...types, "null"] : types;
}

function isType(t: string, d: unknown): boolean {
  switch (t) {
    case "null":
      return d === null;
    case "array":
      return Array.isArray(d);
    case "object":
      return typeof d === "object" && d !== null && !Array.isArray(d);
    case "integer":
      return typeof d === "number" && !(d % 1) && !Number.isNaN(d);
    default:
      return typeof d === t;
  }
}

const hasGroup = (s: WalkSchema, g: Group) => GROUP_KEYWORDS[g].some((k) => s[k] !== undefined);
const alwaysValid = (s: WalkSchema) => !Object.keys(s).some((k) => VALIDATING.has(k));

function patternOf(s: WalkSchema): GoRegexp {
  let re = patterns.get(s);
  if (!re) {
    re = compileGoRegexp(s.pattern as string);
    patterns.set(s, re);
  }
  return re;
}

function inEnum(s: WalkSchema, d: unknown): boolean {
  const values = s.enum as unknown[];
  if (typeof d !== "object" || d === null) {
    let set = enumSets.get(s);
    if (!set) {
      set = new Set(values.filter((v) => typeof v !== "object" || v === null));
      enumSets.set(s, set);
    }
    return set.has(d);
  }
  return values.some((v) => deepEqual(v, d));
}

/** Length in code points, as ajv counts it (a surrogate pair is one). */
function codePoints(str: string): number {
  let n = 0;
  for (let i = 0; i < str.length; i++) {
    n++;
    const c = str.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < str.length && (str.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((x, i) => deepEqual(x, bs[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao);
  return (
    keys.length === Object.keys(bo).length &&
    keys.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]))
  );
}

/** The first pair of equal items as [earlier, later] index, by a canonical JSON text (linear). */
function duplicate(items: readonly unknown[]): [number, number] | undefined {
  const seen = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const key = canonical(items[i]);
    const j = seen.get(key);
    if (j !== undefined) return [j, i];
    seen.set(key, i);
  }
  return undefined;
}

function canonical(v: unknown): string {
  if (typeof v !== "object" || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(",")}}`;
}
