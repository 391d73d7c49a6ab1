/**
 * Regular expressions with RE2 semantics (re2js): CEL's `matches` (which the
 * rule compiler routes here, see program.ts) and the Kubernetes regex library's
 * `find` and `findAll`. Compiled patterns are cached: rules use a handful of
 * constant patterns, evaluated many times.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { RE2JS } from "re2js";
import { CelRuntimeError } from "./values.js";

const cache = new Map<string, RE2JS>();
const CACHE_LIMIT = 1000;

/** The compiled pattern; a malformed pattern throws the RE2 parse error as an evaluation error. */
export function re2(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (re) return re;
  try {
    re = RE2JS.compile(pattern);
  } catch (e) {
    throw new CelRuntimeError((e as Error).message);
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, re);
  return re;
}

/** The RE2 syntax error of a pattern, or undefined when it compiles. */
export function re2SyntaxError(pattern: string): string | undefined {
  try {
    re2(pattern);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  if (limit === 0n) return [];
  const out: string[] = [];
  for (const m of re2(pattern).matchAll(s)) {
    out.push(m[0]);
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

/** The name `matches` is registered under, since the evaluator's own overload uses JavaScript RegExp. */
export const RE2_MATCHES = "re2Matches";

export function registerRegex(env: Environment): void {
  env.registerFunction(`string.${RE2_MATCHES}(string): bool`, (s: string, p: string) => re2(p).test(s));
  env.registerFunction(`${RE2_MATCHES}(string, string): bool`, (s: string, p: string) => re2(p).test(s));
  env.registerFunction("string.find(string): string", (s: string, p: string) => {
    const m = re2(p).exec(s);
    return m ? m[0] : "";
  });
  env.registerFunction("string.findAll(string): list<string>", (s: string, p: string) => findAll(s, p, -1n));
  env.registerFunction("string.findAll(string, int): list<string>", (s: string, p: string, n: bigint) =>
    findAll(s, p, n),
  );
}
