/**
 * Field selectors: `path=value`, `path==value`, `path!=value`, comma = AND, with
 * `\,` `\=` `\\` escapes as in apimachinery's fields package. Which paths a kind
 * supports is decided by the resource (see resources/field-labels.ts).
 */
import { SelectorParseError } from "./label-selector.js";

export interface FieldRequirement {
  readonly field: string;
  readonly op: "=" | "!=";
  readonly value: string;
}

function splitUnescaped(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "\\" && i + 1 < s.length) {
      cur += c + (s[i + 1] as string);
      i++;
    } else if (c === sep) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function unescapeSelector(s: string): string {
  return s.replace(/\\(.)/g, "$1");
}

export function parseFieldSelector(s: string): readonly FieldRequirement[] {
  if (s.trim() === "") return [];
  // Upstream skips empty terms: a trailing comma or `a=b,,c=d` is fine.
  return splitUnescaped(s, ",")
    .filter((part) => part !== "")
    .map((part) => {
      const m = /^((?:\\.|[^=!\\])+)(==|=|!=)(.*)$/.exec(part.trim());
      if (!m) throw new SelectorParseError(`invalid selector: '${part}'; can't understand '${part}'`);
      return {
        field: unescapeSelector((m[1] as string).trim()),
        op: m[2] === "!=" ? "!=" : "=",
        value: unescapeSelector(m[3] as string),
      };
    });
}

export function matchesFields(
  reqs: readonly FieldRequirement[],
  fields: ReadonlyMap<string, string>,
): boolean {
  for (const r of reqs) {
    const v = fields.get(r.field) ?? "";
    if (r.op === "=" ? v !== r.value : v === r.value) return false;
  }
  return true;
}
