/**
 * How a schema property name is spelled in CEL, following the apiserver's
 * escaping rules for CRD rules: CEL keywords become `__kw__`, and `_`, `.`, `-`
 * and `/` inside a name are spelled out; a name with any other character is
 * not reachable from CEL (undefined, as upstream).
 */

const RESERVED = new Set([
  "true",
  "false",
  "null",
  "in",
  "as",
  "break",
  "const",
  "continue",
  "else",
  "for",
  "function",
  "if",
  "import",
  "let",
  "loop",
  "package",
  "namespace",
  "return",
  "var",
  "void",
  "while",
]);

const ESCAPABLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/** The CEL field name of a property, or undefined when CEL cannot name it. */
export function celFieldName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!ESCAPABLE.test(name)) return undefined;
  return name
    .replaceAll("__", "__underscores__")
    .replaceAll(".", "__dot__")
    .replaceAll("-", "__dash__")
    .replaceAll("/", "__slash__");
}
