/**
 * Label selectors in the string form of apimachinery's labels.Parse:
 * `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`; comma = AND.
 * Hand-written: no maintained JS library parses this grammar.
 */
import { KubesdkError } from "@kubesdk/models";
export type LabelRequirement =
  | { readonly key: string; readonly op: "=" | "!="; readonly value: string }
  | { readonly key: string; readonly op: "in" | "notin"; readonly values: readonly string[] }
  | { readonly key: string; readonly op: "exists" | "!" }
  | { readonly key: string; readonly op: ">" | "<"; readonly value: number };

export class SelectorParseError extends KubesdkError {
  readonly code = "SELECTOR_PARSE" as const;
}

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function validKey(key: string): boolean {
  const slash = key.indexOf("/");
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)))
    return false;
  return name.length > 0 && name.length <= 63 && NAME.test(name);
}

function validValue(v: string): boolean {
  return v === "" || (v.length <= 63 && NAME.test(v));
}

/** Splits on commas that are not inside brackets (parentheses unless told). */
export function splitTopLevel(s: string, open = "(", close = ")"): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === open) depth++;
    else if (c === close) depth--;
    else if (c === "," && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function checkKey(key: string, raw: string): string {
  if (!validKey(key))
    throw new SelectorParseError(`unable to parse requirement: invalid label key "${key}" in "${raw}"`);
  return key;
}

function checkValue(value: string, raw: string): string {
  if (!validValue(value))
    throw new SelectorParseError(`unable to parse requirement: invalid label value "${value}" in "${raw}"`);
  return value;
}

function parseRequirement(raw: string): LabelRequirement {
  const s = raw.trim();
  if (s === "") throw new SelectorParseError("found '', expected: !, identifier, or 'end of string'");
  if (s.startsWith("!")) return { key: checkKey(s.slice(1).trim(), raw), op: "!" };
  const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(s);
  if (set) {
    const inner = (set[3] as string).trim();
    // Upstream's parser reads `()` as the set holding the empty value: `a in ()` is `a in ("")`.
    if (inner === "")
      return { key: checkKey(set[1] as string, raw), op: set[2] as "in" | "notin", values: [""] };
    const values = inner.split(",").map((v) => v.trim());
    for (const v of values) checkValue(v, raw);
    return { key: checkKey(set[1] as string, raw), op: set[2] as "in" | "notin", values };
  }
  const cmp = /^([^=!<>\s]+)\s*(==|=|!=|>|<)\s*(.*)$/.exec(s);
  if (cmp) {
    const key = checkKey(cmp[1] as string, raw);
    const op = cmp[2] as string;
    const value = (cmp[3] as string).trim();
    if (op === ">" || op === "<") {
      if (!/^-?\d+$/.test(value))
        throw new SelectorParseError(`unable to parse requirement: "${value}" is not an integer`);
      return { key, op, value: Number(value) };
    }
    return { key, op: op === "!=" ? "!=" : "=", value: checkValue(value, raw) };
  }
  if (/^\S+$/.test(s)) return { key: checkKey(s, raw), op: "exists" };
  throw new SelectorParseError(`unable to parse requirement: "${raw}"`);
}

export function parseLabelSelector(s: string): readonly LabelRequirement[] {
  if (s.trim() === "") return [];
  return splitTopLevel(s).map(parseRequirement);
}

/**
 * Whether `labels` (an object's metadata.labels as stored) meets every requirement. Anything that is
 * not a map of strings counts as no labels, so that no stored object can fail another request.
 */
export function matchesLabels(reqs: readonly LabelRequirement[], labels: unknown): boolean {
  const map = typeof labels === "object" && labels !== null && !Array.isArray(labels) ? labels : {};
  for (const r of reqs) {
    const raw: unknown = Object.hasOwn(map, r.key) ? (map as Record<string, unknown>)[r.key] : undefined;
    const v = typeof raw === "string" ? raw : undefined;
    const has = v !== undefined;
    switch (r.op) {
      case "=":
        if (v !== r.value) return false;
        break;
      case "!=":
        if (v === r.value) return false;
        break;
      case "in":
        if (v === undefined || !r.values.includes(v)) return false;
        break;
      case "notin":
        if (v !== undefined && r.values.includes(v)) return false;
        break;
      case "exists":
        if (!has) return false;
        break;
      case "!":
        if (has) return false;
        break;
      case ">":
      case "<": {
        if (v === undefined || !/^-?\d+$/.test(v)) return false;
        const n = Number(v);
        if (r.op === ">" ? !(n > r.value) : !(n < r.value)) return false;
        break;
      }
    }
  }
  return true;
}

/** A metav1.LabelSelector as stored in objects: matchLabels ANDed with matchExpressions. */
export interface LabelSelectorObject {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly {
    readonly key: string;
    readonly operator: string;
    readonly values?: readonly string[];
  }[];
}

const OPERATORS: Record<string, "in" | "notin" | "exists" | "!"> = {
  In: "in",
  NotIn: "notin",
  Exists: "exists",
  DoesNotExist: "!",
};

/**
 * The requirements of a structured selector (upstream: metav1.LabelSelectorAsSelector). An empty
 * selector has none and selects everything; the operators are the four validation accepts.
 */
export function requirementsOfSelector(s: LabelSelectorObject): LabelRequirement[] {
  const out: LabelRequirement[] = Object.entries(s.matchLabels ?? {}).map(([key, value]) => ({
    key,
    op: "=" as const,
    value,
  }));
  for (const e of s.matchExpressions ?? []) {
    const op = OPERATORS[e.operator] ?? "!";
    out.push(op === "in" || op === "notin" ? { key: e.key, op, values: e.values ?? [] } : { key: e.key, op });
  }
  return out;
}
