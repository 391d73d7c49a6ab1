/**
 * Table cells of a custom resource's additionalPrinterColumns, as the CRD
 * table convertor fills them: the column's JSONPath picks the first match,
 * then the value is converted by the column type (integer, number, boolean,
 * string; a date becomes an age such as "5m3s"); anything else is null.
 *
 * Hand-written: the only JSONPath package in the tree is a transitive
 * dependency, and printer columns use a small subset — `.field`,
 * `['field']`, `[n]`, `[*]` and filters `[?(@.a.b=="x")]`.
 */
import type { PrinterColumn } from "../resources/served.js";
import { humanDuration } from "../tables/format.js";

type Step =
  | { kind: "field"; name: string }
  | { kind: "index"; index: number }
  | { kind: "all" }
  | { kind: "filter"; path: string[]; op: "==" | "!=" | "exists"; value?: unknown };

/** One token of the path grammar: a pattern anchored at the start, and the step it makes. */
const TOKENS: ReadonlyArray<[RegExp, (m: RegExpExecArray) => Step]> = [
  [/^\.([A-Za-z0-9_$-]+)/, (m) => ({ kind: "field", name: m[1] as string })],
  [/^\[['"]([^'"]+)['"]\]/, (m) => ({ kind: "field", name: m[1] as string })],
  [/^\[(-?\d+)\]/, (m) => ({ kind: "index", index: Number(m[1]) })],
  [/^\[\*\]/, () => ({ kind: "all" })],
  [
    /^\[\?\(@((?:\.[A-Za-z0-9_$-]+)+)\s*(?:(==|!=)\s*("[^"]*"|'[^']*'|[^)\s]+))?\s*\)\]/,
    (m) => ({
      kind: "filter",
      path: (m[1] as string).slice(1).split("."),
      op: (m[2] as "==" | "!=" | undefined) ?? "exists",
      value: literal(m[3]),
    }),
  ],
];

function literal(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  if (/^["']/.test(raw)) return raw.slice(1, -1);
  if (raw === "true" || raw === "false") return raw === "true";
  return Number(raw);
}

function parsePath(path: string): Step[] | undefined {
  const steps: Step[] = [];
  let s = path.trim().replace(/^\{(.*)\}$/, "$1");
  if (s.startsWith("$")) s = s.slice(1);
  while (s.length > 0) {
    let matched = false;
    for (const [re, make] of TOKENS) {
      const m = re.exec(s);
      if (!m) continue;
      steps.push(make(m));
      s = s.slice(m[0].length);
      matched = true;
      break;
    }
    if (!matched) return undefined;
  }
  return steps;
}

function valueAt(obj: unknown, path: readonly string[]): unknown {
  let cur = obj;
  for (const seg of path)
    cur = typeof cur === "object" && cur !== null ? (cur as Record<string, unknown>)[seg] : undefined;
  return cur;
}

/** Every match of a JSONPath (the subset above), in document order. */
export function findResults(obj: unknown, path: string): unknown[] {
  const steps = parsePath(path);
  if (!steps) return [];
  let current: unknown[] = [obj];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if (step.kind === "field") {
        if (typeof v === "object" && v !== null && !Array.isArray(v) && step.name in v)
          next.push((v as Record<string, unknown>)[step.name]);
      } else if (!Array.isArray(v)) continue;
      else if (step.kind === "index") {
        const item = v[step.index < 0 ? v.length + step.index : step.index];
        if (item !== undefined) next.push(item);
      } else if (step.kind === "all") next.push(...v);
      else
        for (const item of v) {
          const got = valueAt(item, step.path);
          const hit =
            step.op === "exists"
              ? got !== undefined
              : step.op === "=="
                ? got === step.value
                : got !== step.value;
          if (hit) next.push(item);
        }
    }
    current = next;
  }
  return current;
}

/** Text of a value as the JSONPath printer prints it (strings raw, other values as JSON). */
function printed(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

export function customCell(column: PrinterColumn, obj: unknown, now: number): unknown {
  const results = findResults(obj, column.jsonPath);
  if (results.length === 0) return null;
  const value = results[0];
  if (value === null || value === undefined) return null;
  switch (column.type) {
    case "string":
      return printed(value);
    case "integer":
      return typeof value === "number" ? Math.trunc(value) : null;
    case "number":
      return typeof value === "number" ? value : null;
    case "boolean":
      return typeof value === "boolean" ? value : null;
    case "date": {
      if (typeof value !== "string") return null;
      const t = Date.parse(value);
      return Number.isNaN(t) ? "<invalid>" : humanDuration(now - t);
    }
    default:
      return null;
  }
}

/** The description upstream gives a column whose CRD declares none. */
export function columnDescription(column: PrinterColumn): string {
  return column.description ?? `Custom resource definition column (in JSONPath format): ${column.jsonPath}`;
}
