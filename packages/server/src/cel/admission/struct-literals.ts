/**
 * Mutating policies build objects with CEL message literals: `Object{spec: Object.spec{replicas:
 * 1}}` for apply configurations and `JSONPatch{op: "add", path: "/x", value: 1}` for patches.
 * The evaluator has no message construction, so these literals are rewritten to map literals with
 * the field names quoted (`{"spec": {"replicas": 1}}`) before parsing. Written by hand: it is a
 * token-level rewrite that skips string literals, and no library does it. Positions in error
 * messages refer to the rewritten text (docs/divergences.md VAP3).
 */

const TYPE_ROOTS = new Set(["Object", "JSONPatch"]);
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;

/** The end of the string literal starting at `i` (quotes, triple quotes, raw and bytes prefixes). */
function stringEnd(src: string, i: number): number {
  const raw = /[rR]/.test(src[i - 1] ?? "") || /[rR]/.test(src[i - 2] ?? "");
  const q = src[i] as string;
  const triple = src.startsWith(q.repeat(3), i);
  const close = triple ? q.repeat(3) : q;
  let j = i + close.length;
  while (j < src.length) {
    if (!raw && src[j] === "\\") {
      j += 2;
      continue;
    }
    if (src.startsWith(close, j)) return j + close.length;
    if (!triple && src[j] === "\n") return j;
    j++;
  }
  return src.length;
}

/** A dotted type name at `i` (`Object.spec.template`) followed by `{`: the index of the brace. */
function literalBrace(src: string, i: number): number | undefined {
  if (src[i - 1] === "." || /[A-Za-z0-9_]/.test(src[i - 1] ?? "")) return undefined;
  IDENT.lastIndex = i;
  const first = IDENT.exec(src);
  if (!first || !TYPE_ROOTS.has(first[0])) return undefined;
  let j = i + first[0].length;
  for (;;) {
    while (/\s/.test(src[j] ?? "")) j++;
    if (src[j] === "{") return j;
    if (src[j] !== ".") return undefined;
    j++;
    while (/\s/.test(src[j] ?? "")) j++;
    IDENT.lastIndex = j;
    const next = IDENT.exec(src);
    if (!next) return undefined;
    j += next[0].length;
  }
}

/** Rewrites message literals of Object and JSONPatch types to map literals. */
export function rewriteStructLiterals(src: string): string {
  let out = "";
  // For each open brace: whether it opened a message literal.
  const braces: boolean[] = [];
  // In a message literal, right after `{` or `,` a field name may follow.
  let expectField = false;
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === '"' || c === "'") {
      const end = stringEnd(src, i);
      out += src.slice(i, end);
      i = end;
      expectField = false;
      continue;
    }
    if (/\s/.test(c)) {
      out += c;
      i++;
      continue;
    }
    const brace = /[A-Za-z_]/.test(c) ? literalBrace(src, i) : undefined;
    if (brace !== undefined) {
      out += "{";
      braces.push(true);
      expectField = true;
      i = brace + 1;
      continue;
    }
    if (expectField && /[A-Za-z_?]/.test(c)) {
      const optional = c === "?";
      IDENT.lastIndex = optional ? i + 1 : i;
      const name = IDENT.exec(src);
      let after = IDENT.lastIndex;
      while (/\s/.test(src[after] ?? "")) after++;
      if (name && src[after] === ":") {
        out += `${optional ? "?" : ""}"${name[0]}"`;
        i = (optional ? i + 1 : i) + name[0].length;
        expectField = false;
        continue;
      }
    }
    expectField = false;
    if (c === "{" || c === "(" || c === "[") braces.push(false);
    else if (c === "}" || c === ")" || c === "]") braces.pop();
    else if (c === "," && braces.at(-1) === true) expectField = true;
    out += c;
    i++;
  }
  return out;
}
