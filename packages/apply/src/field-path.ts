/**
 * Upstream's human field paths (`.spec.containers[name="web"].image`,
 * `[=value]` for set items, `[3]` for positions) parsed into steps, and the
 * removal of such a path from an apply configuration (the "yield" policy).
 */
import { KubesdkError, type PathElement } from "@kubesdk/models";

/** A field path that does not parse. */
export class FieldPathError extends KubesdkError {
  readonly code = "FIELD_PATH" as const;
}

/** Parses `.a.b[name="x",port=80][=1][2]`. */
export function parseFieldPath(path: string): PathElement[] {
  const steps: PathElement[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new FieldPathError(`invalid field path ${JSON.stringify(path)} at ${i}: ${why}`);
  };
  while (i < path.length) {
    if (path[i] === ".") {
      const m = /^\.([^.[]+)/.exec(path.slice(i));
      if (!m) fail("expected a field name");
      steps.push({ field: (m as RegExpExecArray)[1] as string });
      i += (m as RegExpExecArray)[0].length;
    } else if (path[i] === "[") {
      const end = findClose(path, i);
      if (end < 0) fail("unclosed [");
      const inner = path.slice(i + 1, end);
      if (/^\d+$/.test(inner)) steps.push({ index: Number(inner) });
      else if (inner.startsWith("=")) steps.push({ value: parseJson(inner.slice(1), fail) });
      else {
        const key: Record<string, unknown> = {};
        for (const part of splitTop(inner)) {
          const eq = part.indexOf("=");
          if (eq <= 0) fail("expected name=value");
          key[part.slice(0, eq)] = parseJson(part.slice(eq + 1), fail);
        }
        steps.push({ key });
      }
      i = end + 1;
    } else fail(`unexpected ${JSON.stringify(path[i])}`);
  }
  return steps;
}

function parseJson(text: string, fail: (why: string) => never): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fail(`not a JSON value: ${JSON.stringify(text)}`);
  }
}

function findClose(s: string, open: number): number {
  let inString = false;
  for (let i = open + 1; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "]") return i;
  }
  return -1;
}

function splitTop(s: string): string[] {
  const out: string[] = [];
  let cur = "";
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (inString) {
      cur += c;
      if (c === "\\") cur += s[++i] ?? "";
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      cur += c;
    } else if (c === ",") {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function matches(item: unknown, step: PathElement, i: number): boolean {
  if ("index" in step) return i === step.index;
  if ("value" in step) return JSON.stringify(item) === JSON.stringify(step.value);
  if ("key" in step)
    return (
      isObj(item) && Object.entries(step.key).every(([k, v]) => JSON.stringify(item[k]) === JSON.stringify(v))
    );
  return false;
}

/** A copy of `obj` without the value at `steps` (unchanged when the path is absent). */
export function removePath<T>(obj: T, steps: readonly PathElement[]): T {
  if (steps.length === 0) return obj;
  const [step, ...rest] = steps as [PathElement, ...PathElement[]];
  if ("field" in step) {
    if (!isObj(obj) || !Object.hasOwn(obj, step.field)) return obj;
    const copy: Record<string, unknown> = { ...obj };
    if (rest.length === 0) delete copy[step.field];
    else {
      const inner = removePath(copy[step.field], rest);
      if (inner === copy[step.field]) return obj;
      copy[step.field] = inner;
    }
    return copy as T;
  }
  if (!Array.isArray(obj)) return obj;
  let changed = false;
  const out: unknown[] = [];
  obj.forEach((item, i) => {
    if (!matches(item, step, i)) out.push(item);
    else {
      const next = rest.length > 0 ? removePath(item, rest) : undefined;
      if (next !== item) changed = true;
      if (next !== undefined) out.push(next);
    }
  });
  return (changed ? out : obj) as T;
}
