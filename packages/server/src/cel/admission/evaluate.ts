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
import { dynToCel } from "../schema-types.js";
import { type Shape, shapeOfValue } from "../sizes.js";
import { celGoText } from "../validate-rules.js";
import { authorizerFor } from "./authorizer.js";
import type { AdmissionCompiled, NamedExpression } from "./compile.js";
import { type AdmissionVariables, admissionEnvironment } from "./environment.js";
import {
  type AdmissionRequestInput,
  NAMESPACE_TYPE,
  namespaceJson,
  REQUEST_TYPE,
  requestJson,
} from "./request.js";

export const OUT_OF_BUDGET =
  "validation failed due to running out of cost budget, no further validation rules will be run";

/** What admission expressions read about one request. */
export interface AdmissionInput {
  /** The object written (null on DELETE). */
  readonly object: unknown;
  /** The stored object (null on CREATE). */
  readonly oldObject: unknown;
  readonly request: AdmissionRequestInput;
  /** The request's namespace object, when the resource is namespaced and the namespace exists. */
  readonly namespace: Record<string, unknown> | undefined;
  /** The binding's param object; null when the policy has none. */
  readonly params: unknown;
  /** Whether the requester may do anything (the answer of `authorizer` checks). */
  readonly authorized: boolean;
}

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

/** cel-go's text of an evaluator error. */
export function evaluationText(e: unknown): string {
  return celGoText(((e as Error).message ?? String(e)).split("\n")[0] ?? "");
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
    input: AdmissionInput,
    opts: AdmissionVariables,
    variables: readonly NamedExpression[] = [],
    budget = RUNTIME_BUDGET,
  ) {
    this.budget = budget;
    const { types } = admissionEnvironment(opts);
    const request = requestJson(input.request);
    const ns = namespaceJson(input.namespace);
    this.values = {
      object: dynToCel(input.object ?? null),
      oldObject: dynToCel(input.oldObject ?? null),
      request: types.value(REQUEST_TYPE, request),
      namespaceObject: types.value(NAMESPACE_TYPE, ns),
      variables: this.varValues,
      ...(opts.params ? { params: dynToCel(input.params ?? null) } : {}),
      ...(opts.authorizer ? { authorizer: authorizerFor(input.authorized) } : {}),
    };
    this.scope = new Map([
      ["object", shapeOfValue(input.object)],
      ["oldObject", shapeOfValue(input.oldObject)],
      ["params", shapeOfValue(input.params)],
      ["request", shapeOfValue(request)],
      ["namespaceObject", shapeOfValue(ns)],
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

  private run(program: Program, source: string): Outcome {
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
