/**
 * matchConditions of admission webhooks and policies: CEL expressions over object, oldObject,
 * request, authorizer (and params, for policies) that must all be true for the webhook or policy
 * to apply. Evaluated as upstream's matcher does: the first false condition means no match (even
 * after an error in an earlier one); otherwise errors fail the match under failurePolicy Fail
 * (one error as is, several as `[e1, e2]`) and mean no match under Ignore.
 */
import { type AdmissionCompiled, compileAdmission } from "./compile.js";
import { AdmissionActivation, type AdmissionInput } from "./evaluate.js";

/** Upstream's budget for one webhook's match conditions. */
export const MATCH_CONDITIONS_BUDGET = 2_500_000;

export interface MatchCondition {
  readonly name: string;
  readonly expression: string;
}

export type MatchResult =
  | { readonly matches: true }
  | { readonly matches: false; readonly failedCondition?: string }
  | { readonly error: string };

export interface CompiledMatchConditions {
  /** Compilation failures by condition index (each is also reported as an error when matching). */
  readonly compileErrors: ReadonlyMap<number, string>;
  /** Matches a request; `failurePolicy` decides what an evaluation error means. */
  match(
    input: AdmissionInput,
    failurePolicy: "Fail" | "Ignore",
    activation?: AdmissionActivation,
  ): MatchResult;
  /** The same match, yielding after each condition the estimated cost it spent (for pacing). */
  matchSteps(
    failurePolicy: "Fail" | "Ignore",
    activation: AdmissionActivation,
  ): Generator<number, MatchResult, void>;
}

/**
 * Compiles match conditions once (per webhook or policy generation); `params` declares `params`
 * (policies with a paramKind; webhooks never).
 */
export function compileMatchConditions(
  conditions: readonly MatchCondition[],
  options: { readonly params?: boolean } = {},
): CompiledMatchConditions {
  const vars = { params: options.params === true, authorizer: true } as const;
  const compiled: AdmissionCompiled[] = conditions.map((c) =>
    compileAdmission(c.expression, { ...vars, returnTypes: ["bool"] }),
  );
  const compileErrors = new Map<number, string>();
  compiled.forEach((c, i) => {
    if (!c.ok) compileErrors.set(i, c.detail);
  });
  function* matchSteps(
    failurePolicy: "Fail" | "Ignore",
    act: AdmissionActivation,
  ): Generator<number, MatchResult, void> {
    const errors: string[] = [];
    for (const [i, c] of compiled.entries()) {
      const before = act.budget;
      const out = act.evaluate(c);
      yield before - act.budget;
      if (!out.ok) {
        if (out.outOfBudget) return failurePolicy === "Fail" ? { error: out.error } : { matches: false };
        errors.push(out.error);
        continue;
      }
      if (out.value === false) return { matches: false, failedCondition: conditions[i]?.name ?? "" };
    }
    if (errors.length === 0) return { matches: true };
    if (failurePolicy === "Ignore") return { matches: false };
    return { error: errors.length === 1 ? (errors[0] as string) : `[${errors.join(", ")}]` };
  }
  return {
    compileErrors,
    matchSteps,
    match(input, failurePolicy, activation) {
      const steps = matchSteps(
        failurePolicy,
        activation ?? new AdmissionActivation(input, vars, [], MATCH_CONDITIONS_BUDGET),
      );
      let s = steps.next();
      while (!s.done) s = steps.next();
      return s.value;
    },
  };
}
