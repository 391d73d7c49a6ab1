/**
 * Compiling an admission expression as upstream's admission CEL compiler does: parse and check in
 * the environment for its variables, then require one of the expected result types. Failures carry
 * upstream's error type (Required, Invalid) and detail (`compilation failed: ERROR: <input>:…`,
 * `must evaluate to bool but got string`), which policy validation turns into field errors and
 * the admission plugins into denials.
 */
import { compileExpression, type Program } from "../program.js";
import { type AdmissionVariables, admissionEnvironment } from "./environment.js";
import { rewriteStructLiterals } from "./struct-literals.js";
import { declareInOrder, type VariableDecls, withVariables } from "./variables.js";

export type CompileFailureType = "Required" | "Invalid";

export type AdmissionCompiled =
  | { readonly ok: true; readonly program: Program; readonly source: string }
  | {
      readonly ok: false;
      readonly type: CompileFailureType;
      readonly detail: string;
      readonly source: string;
    };

export interface CompileOptions extends AdmissionVariables {
  /** The result types accepted, as the evaluator spells them; `dyn` accepts any. */
  readonly returnTypes: readonly string[];
  /** The policy's variables declared so far; `variables` is undeclared without them. */
  readonly variables?: VariableDecls;
}

/** A policy variable, compiled. */
export interface NamedExpression {
  readonly name: string;
  readonly compiled: AdmissionCompiled;
}

export interface CompiledVariables {
  readonly variables: readonly NamedExpression[];
  /** Every variable with its type, for the expressions that read them; none without variables. */
  readonly decls: VariableDecls | undefined;
}

/** How the evaluator names a type vs how cel-go prints it in `must evaluate to …`. */
function celGoType(t: string): string {
  return t === "null" ? "null_type" : t.replaceAll("<", "(").replaceAll(">", ")");
}

function accepts(returnTypes: readonly string[], type: string): boolean {
  // As cel-go's IsExactType: a dyn result passes only where any type is accepted (variables).
  if (returnTypes.includes("dyn")) return true;
  return returnTypes.some(
    (t) =>
      t === type || (t === "map" && type.startsWith("map<")) || (t === "list" && type.startsWith("list<")),
  );
}

/** Compiles one admission expression. */
export function compileAdmission(source: string, opts: CompileOptions): AdmissionCompiled {
  if (source.trim() === "")
    return { ok: false, type: "Required", detail: "expression is not specified", source };
  const base = admissionEnvironment(opts).env;
  const env = opts.variables ? withVariables(base, opts.variables) : base;
  const text = opts.patchTypes ? rewriteStructLiterals(source) : source;
  const compiled = compileExpression(env, text);
  if (!compiled.ok) {
    const detail = compiled.error.startsWith("ERROR:")
      ? `compilation failed: ${compiled.error}`
      : compiled.error;
    return { ok: false, type: "Invalid", detail, source };
  }
  const type = compiled.program.type;
  if (!accepts(opts.returnTypes, type)) {
    const wanted = opts.returnTypes.map(celGoType);
    const detail =
      wanted.length === 1
        ? `must evaluate to ${wanted[0]} but got ${celGoType(type)}`
        : `must evaluate to one of [${wanted.join(" ")}] but got ${celGoType(type)}`;
    return { ok: false, type: "Invalid", detail, source };
  }
  return { ok: true, program: compiled.program, source };
}

/** Compiles a policy's variables in order, each seeing the ones before it with their types. */
export function compileVariables(
  list: readonly { readonly name: string; readonly expression: string }[],
  opts: AdmissionVariables,
): CompiledVariables {
  const { results, decls } = declareInOrder(
    list,
    (expression, variables) => compileAdmission(expression, { ...opts, variables, returnTypes: ["dyn"] }),
    (c) => (c.ok ? c.program.type : undefined),
  );
  const variables = results.map((compiled, i) => ({ name: list[i]?.name ?? "", compiled }));
  return { variables, decls: list.length > 0 ? decls : undefined };
}
