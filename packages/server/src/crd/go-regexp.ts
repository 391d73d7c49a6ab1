/**
 * Client-supplied regular expressions (a CRD schema's `pattern`) compiled the way the apiserver
 * compiles them: Go's `regexp` package, i.e. RE2 syntax and linear-time matching.
 *
 * Engine: re2js, a pure-JavaScript port of RE2 (via RE2/J). It accepts Go's syntax (`(?i)`,
 * `(?P<name>…)`, `[[:alpha:]]`, `\pL`, `\z`), refuses what Go refuses (lookaround, backreferences)
 * with the same "error parsing regexp: …" texts, and matches in time linear in the input, so a
 * pattern like `^(a+)+$` cannot stall the event loop. The native `re2` binding was not chosen: it
 * needs a native build on install, and its error texts are C++ RE2's, not Go's. `re2-wasm` is
 * unmaintained. JavaScript's own RegExp backtracks (exponential time) and reads a different syntax.
 */
import { RE2JS, RE2JSException } from "re2js";

/** What ajv needs of a regular expression engine: `test` and a cache key. */
export interface GoRegexp {
  test(s: string): boolean;
  toString(): string;
}

/** Why Go's `regexp.Compile` refuses `pattern` (its error text), or undefined when it compiles. */
export function goRegexpError(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (e) {
    if (e instanceof RE2JSException) return e.message;
    throw e;
  }
}

/**
 * Compiles `pattern` as Go does; `test` is Go's `MatchString` (unanchored search). Throws
 * RE2JSException for a pattern Go refuses. The second argument (ajv's RegExp flags) is ignored:
 * Go patterns carry their flags inline.
 */
export function compileGoRegexp(pattern: string, _flags?: string): GoRegexp {
  const re = RE2JS.compile(pattern);
  return { test: (s) => re.matcher(s).find(), toString: () => `go:${pattern}` };
}
