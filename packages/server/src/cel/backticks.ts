/**
 * cel-go accepts a field name in backticks (`` self.`a-b` ``); the evaluator does not. A plain
 * identifier in backticks is written without them (spaces keep the columns). Any other name is
 * selected by index instead, `` m.`a-b` `` as `m["a-b"]`, which is the same on a map (the key's
 * value, or no such key) and, as upstream, an undefined field on an object. Such a rewrite is one
 * character longer; `original` maps a column of the rewritten text back.
 */
export interface Unquoted {
  readonly source: string;
  readonly original: (offset: number) => number;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A selection of a name in backticks: the dot, an optional `?`, spaces, the quoted name. */
const QUOTED_SELECTION = /\.(\?)?(\s*)`([^`\n]*)`/g;

export function withoutBackticks(source: string): Unquoted {
  if (!source.includes("`")) return { source, original: (o) => o };
  /** Offsets in the rewritten text after which it is one character longer. */
  const grown: number[] = [];
  let shift = 0;
  const out = source.replace(
    QUOTED_SELECTION,
    (_, optional: string | undefined, space: string, name: string, at: number) => {
      if (IDENTIFIER.test(name)) return `.${optional ?? ""}${space} ${name} `;
      grown.push(at + shift);
      shift += 1;
      return `${optional ? "[?" : "["}${space}"${name}"]`;
    },
  );
  return { source: out, original: (o) => o - grown.filter((g) => g < o).length };
}
