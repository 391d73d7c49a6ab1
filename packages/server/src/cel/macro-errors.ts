/**
 * cel-go's reports of misused macros. A macro's argument that is not a simple name is a parse error
 * with cel-go's wording (the quantifiers say "argument must be a simple name", map, filter and
 * sortBy "argument is not an identifier"). A macro name called with a number of arguments no macro
 * takes is, for cel-go, a call of an undeclared function: it reports that at the call's parenthesis
 * before looking at the arguments (the evaluator would look at them first).
 */
import type { ASTNode } from "@marcbachmann/cel-js";

/** The evaluator's message for its own macros' iteration variable, by macro. */
const BUILTIN_VARIABLE = /^(all|exists|exists_one|map|filter)\(var, .*invalid predicate iteration variable$/;

/** cel-go's message for a macro argument the evaluator or our macros refused while parsing. */
export function macroArgumentMessage(message: string): string {
  const m = BUILTIN_VARIABLE.exec(message);
  if (!m) return message;
  return m[1] === "map" || m[1] === "filter"
    ? "argument is not an identifier"
    : "argument must be a simple name";
}

/** The argument counts each macro takes; these names have no function overloads. */
const MACRO_ARITIES: Readonly<Record<string, readonly number[]>> = {
  all: [2, 3],
  exists: [2, 3],
  exists_one: [2, 3],
  existsOne: [3],
  map: [2, 3],
  filter: [2],
  transformList: [3, 4],
  transformMap: [3, 4],
  transformMapEntry: [3, 4],
  sortBy: [2],
};

/** The first method call of a macro's name with an argument count no macro takes. */
export function misusedMacro(ast: ASTNode): { name: string; node: ASTNode } | undefined {
  let found: { name: string; node: ASTNode } | undefined;
  const walk = (node: unknown): void => {
    if (found || typeof node !== "object" || node === null) return;
    if (Array.isArray(node)) {
      for (const x of node) walk(x);
      return;
    }
    if (!("op" in node)) return;
    const n = node as ASTNode;
    if (n.op === "rcall") {
      const [name, receiver, params] = n.args as [string, ASTNode, ASTNode[]];
      walk(receiver);
      const arities = Object.hasOwn(MACRO_ARITIES, name) ? MACRO_ARITIES[name] : undefined;
      if (!found && arities && !arities.includes(params.length)) found = { name, node: n };
      walk(params);
      return;
    }
    walk((n as { args: unknown }).args);
  };
  walk(ast);
  return found;
}
