/**
 * Evaluating admission expressions for one request, as upstream's admission activation does: the
 * variables bound once per request, `variables.<name>` evaluated lazily on first use (an unused
 * variable that fails costs nothing and fails nothing), and every evaluation bounded — an
 * expression whose cost on these values is over the per-call limit fails with cel-go's
 * cancellation, and all expressions of a policy share the runtime budget; running out of it ends
 * the evaluation with upstream's message. Costs are our estimate on the actual values (cel/cost.ts).
 */
import type { ASTNode } from "@marcbachmann/cel-js";
import { estimate, PER_CALL_LIMIT, RUNTIME_BUDGET, RUNTIME_SCOPE } from "../cost.js";
import { type Program, visit } from "../program.js";
import { type Shape, shapeOfValue } from "../sizes.js";
import type { AdmissionCompiled, NamedExpression } from "./compile.js";
import type { AdmissionVariables } from "./environment.js";
import { evaluationText } from "./evaluation-text.js";
import { evaluateOffThread, type Offloadable, offloads } from "./offload.js";
import { namespaceJson, requestJson } from "./request.js";
import { type AdmissionInput, activationValues } from "./values.js";
import type { VariableDecls } from "./variables.js";

export { evaluationText } from "./evaluation-text.js";
export type { AdmissionInput } from "./values.js";

export const OUT_OF_BUDGET =
  "validation failed due to running out of cost budget, no further validation rules will be run";

export type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string; readonly outOfBudget?: boolean };

/** The `variables.<name>` an expression reads. */
function variablesRead(ast: ASTNode): Set<string> {
  const names = new Set<string>();
  visit(ast, (n) => {
    if (n.op !== "." && n.op !== ".?") return;
    const [recv, field] = n.args as [ASTNode, string];
    if (recv.op === "id" && recv.args === "variables") names.add(field);
  });
  return names;
}

/** The evaluation state of one policy (or one set of match conditions) on one request. */
export class AdmissionActivation {
  budget: number;
  private readonly values: Record<string, unknown>;
  private readonly scope: Map<string, Shape>;
  private readonly varValues: Record<string, unknown> = {};
  private readonly varShapes: Record<string, Shape> = {};
  private readonly varErrors = new Map<string, string>();
  private readonly byName = new Map<string, NamedExpression>();

  constructor(
    private readonly input: AdmissionInput,
    private readonly opts: AdmissionVariables,
    variables: readonly NamedExpression[] = [],
    budget = RUNTIME_BUDGET,
  ) {
    this.budget = budget;
    this.values = activationValues(input, opts, this.varValues);
    this.scope = new Map([
      ["object", shapeOfValue(input.object)],
      ["oldObject", shapeOfValue(input.oldObject)],
      ["params", shapeOfValue(input.params)],
      ["request", shapeOfValue(requestJson(input.request))],
      ["namespaceObject", shapeOfValue(namespaceJson(input.namespace))],
      ["variables", { size: 0, fields: this.varShapes, measured: true }],
      [RUNTIME_SCOPE, { size: 0 }],
    ]);
    for (const v of variables) this.byName.set(v.name, v);
  }

  /** Evaluates an expression; errors carry upstream's wording. */
  evaluate(compiled: AdmissionCompiled): Outcome {
    if (!compiled.ok) return { ok: false, error: `compilation error: ${compiled.detail}` };
    return this.run(compiled.program, compiled.source);
  }

  /**
   * The same evaluation, on a rule worker when it is expensive and can travel (offload.ts);
   * `decls`: the policy's variable declarations the expression was compiled with.
   */
  evaluateOffThread(
    compiled: AdmissionCompiled,
    decls: VariableDecls | undefined,
  ): Outcome | Promise<Outcome> {
    if (!compiled.ok) return this.evaluate(compiled);
    const { program, source } = compiled;
    const charged = this.charge(program, source);
    if (typeof charged !== "number") return charged;
    const read = [...variablesRead(program.ast)].filter((n) => n in this.varValues);
    const variables = Object.fromEntries(read.map((n) => [n, this.varValues[n]]));
    const e: Offloadable = { program, source, opts: this.opts, decls };
    if (!offloads(e, charged, variables)) return this.execute(program, source);
    return evaluateOffThread(e, this.input, variables).then((r) =>
      r.ok ? r : { ok: false, error: `expression '${source}' resulted in error: ${r.error}` },
    );
  }

  private run(program: Program, source: string): Outcome {
    const charged = this.charge(program, source);
    return typeof charged === "number" ? this.execute(program, source) : charged;
  }

  /**
   * Binds the variables the expression reads and takes its estimated cost from the budget: the
   * cost, or the outcome when it may not run (a variable failed, over the per-call limit or budget).
   */
  private charge(program: Program, source: string): number | Outcome {
    for (const name of variablesRead(program.ast)) {
      const failed = this.bindVariable(name);
      if (failed?.outOfBudget) return { ok: false, error: failed.error, outOfBudget: true };
      if (failed) return { ok: false, error: `expression '${source}' resulted in error: ${failed.error}` };
    }
    const cost = estimate(program.ast, this.scope).cost;
    if (cost > PER_CALL_LIMIT) {
      if (PER_CALL_LIMIT > this.budget) return { ok: false, error: OUT_OF_BUDGET, outOfBudget: true };
      this.budget -= PER_CALL_LIMIT;
      return {
        ok: false,
        error: `expression '${source}' resulted in error: operation cancelled: actual cost limit exceeded`,
      };
    }
    if (cost > this.budget) return { ok: false, error: OUT_OF_BUDGET, outOfBudget: true };
    this.budget -= cost;
    return cost;
  }

  private execute(program: Program, source: string): Outcome {
    try {
      return { ok: true, value: program.run(this.values) };
    } catch (e) {
      return { ok: false, error: `expression '${source}' resulted in error: ${evaluationText(e)}` };
    }
  }

  /** Evaluates `variables.<name>` once; the failure a reader of it reports, if any. */
  private bindVariable(name: string): { error: string; outOfBudget?: boolean } | undefined {
    if (name in this.varValues) return undefined;
    const known = this.varErrors.get(name);
    if (known !== undefined) return { error: known };
    const v = this.byName.get(name);
    if (!v) return undefined;
    if (!v.compiled.ok) {
      const error = `composited variable "${name}" fails to compile: ${v.compiled.detail}`;
      this.varErrors.set(name, error);
      return { error };
    }
    const out = this.run(v.compiled.program, v.compiled.source);
    if (!out.ok) {
      if (out.outOfBudget) return { error: out.error, outOfBudget: true };
      const inner = out.error.replace(/^expression '[\s\S]*?' resulted in error: /, "");
      const error = `composited variable "${name}" fails to evaluate: ${inner}`;
      this.varErrors.set(name, error);
      return { error };
    }
    this.varValues[name] = out.value;
    this.varShapes[name] = shapeOfValue(out.value);
    return undefined;
  }
}
