/**
 * Gives the event loop back between the expressions of one admission request once they have spent
 * more than a small estimated cost since the last turn, so that a request evaluating expensive policy
 * expressions holds other clients for one expression at most, not a whole policy or chain
 * (docs/divergences.md CEL9). The activation (lazily bound variables, typed request values, the
 * authorizer) stays on this thread; a validating policy's expensive expressions that can travel
 * run on a rule worker (offload.ts), the others here.
 */
import { INLINE_COST_LIMIT } from "../rules-pool.js";
import { AdmissionActivation, type AdmissionInput } from "./evaluate.js";
import {
  type CompiledMatchConditions,
  MATCH_CONDITIONS_BUDGET,
  type MatchResult,
} from "./match-conditions.js";

export class CostPacer {
  private spent = 0;

  /** `threshold`: estimated cost units between turns (the CRD rules' inline limit, about 2 ms). */
  constructor(private readonly threshold: number = INLINE_COST_LIMIT) {}

  /** Counts `cost`; resolves on a later turn of the loop if the cost since the last turn passed the threshold. */
  async charge(cost: number): Promise<void> {
    this.spent += cost;
    if (this.spent <= this.threshold) return;
    this.spent = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Runs `work` on `act` (which may finish on a worker) and charges what it took from the activation's budget. */
  async run<T>(act: AdmissionActivation, work: () => T | Promise<T>): Promise<T> {
    const before = act.budget;
    const out = await work();
    await this.charge(before - act.budget);
    return out;
  }

  /**
   * Matches a policy's or webhook's conditions on their own activation (their own budget), charging
   * each condition's cost as it goes, so that the loop may be given back between two conditions.
   */
  async match(
    conditions: CompiledMatchConditions,
    input: AdmissionInput,
    failurePolicy: "Fail" | "Ignore",
    params: boolean,
  ): Promise<MatchResult> {
    const own = new AdmissionActivation(input, { params, authorizer: true }, [], MATCH_CONDITIONS_BUDGET);
    const steps = conditions.matchSteps(failurePolicy, own);
    let s = steps.next();
    while (!s.done) {
      await this.charge(s.value);
      s = steps.next();
    }
    return s.value;
  }
}
