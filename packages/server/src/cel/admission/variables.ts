/**
 * A policy's `variables`, typed as upstream's variable composition types them: the variables are
 * compiled in order, each in an environment where `variables` is an object type
 * (`kubernetes.variables`) whose fields are the variables before it, each with the type its
 * expression was checked to have. Later expressions see all of them. A field's type is the
 * expression's type where it is a scalar, a timestamp, a duration, or a list or map of such;
 * anything else (object types, optionals, type values, dyn, a variable that fails to compile) is
 * dyn, as upstream converts checked types to declared field types.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { splitTopLevel } from "../../api/label-selector.js";

/** The declared variables, in order: [name, CEL type]. */
export type VariableDecls = readonly (readonly [string, string])[];

export const VARIABLES_TYPE = "kubernetes.variables";

const KEPT = new Set([
  "bool",
  "bytes",
  "double",
  "google.protobuf.Duration",
  "google.protobuf.Timestamp",
  "int",
  "null",
  "string",
  "uint",
]);

/** The declared type of a variable whose expression checked as `checked` (the evaluator's spelling). */
export function variableFieldType(checked: string): string {
  if (KEPT.has(checked)) return checked;
  if (checked === "list") return "list<dyn>";
  if (checked === "map") return "map<dyn, dyn>";
  const m = /^(list|map)<(.*)>$/.exec(checked);
  if (!m) return "dyn";
  const params = splitTopLevel(m[2] as string, "<", ">").map((p) => variableFieldType(p.trim()));
  if (m[1] === "list" && params.length === 1) return `list<${params[0]}>`;
  if (m[1] === "map" && params.length === 2) return `map<${params[0]}, ${params[1]}>`;
  return "dyn";
}

const composed = new WeakMap<VariableDecls, WeakMap<Environment, Environment>>();

/**
 * `base` with `variables` declared as the object type of `decls` (a clone: the base stays as it
 * is). One clone per (declarations, base): a policy's expressions share the declarations.
 */
export function withVariables(base: Environment, decls: VariableDecls): Environment {
  let byBase = composed.get(decls);
  if (!byBase) {
    byBase = new WeakMap();
    composed.set(decls, byBase);
  }
  let env = byBase.get(base);
  if (!env) {
    env = base.clone();
    // Fields only (no constructor): the evaluator wraps the plain object of values bound at run time.
    env.registerType(VARIABLES_TYPE, { fields: Object.fromEntries(decls) });
    env.registerVariable("variables", VARIABLES_TYPE);
    byBase.set(base, env);
  }
  return env;
}

/**
 * Compiles variables in order, each with `compile` given the declarations of the ones before it;
 * `typeOf` is a result's checked type (undefined: it failed, and the variable is dyn to the
 * others). A later variable of the same name replaces the earlier one's type, as upstream's.
 */
export function declareInOrder<T>(
  list: readonly { readonly name: string; readonly expression: string }[],
  compile: (expression: string, decls: VariableDecls) => T,
  typeOf: (result: T) => string | undefined,
): { readonly results: T[]; readonly decls: VariableDecls } {
  const types = new Map<string, string>();
  let decls: VariableDecls = [];
  const results = list.map((v) => {
    const result = compile(v.expression, decls);
    const t = typeOf(result);
    types.set(v.name, t === undefined ? "dyn" : variableFieldType(t));
    decls = [...types];
    return result;
  });
  return { results, decls };
}
