import type { StepName } from "./fixtures.js";

/** What one client reported for one step, before normalisation. */
export interface StepResult {
  readonly step: StepName;
  readonly outcome: unknown;
}

/** A client's run of the whole scenario against one server. */
export type ScenarioRun = readonly StepResult[];

export class CrossCheckError extends Error {
  override readonly name = "CrossCheckError";
  readonly code: "CLIENT_FAILED" | "ACCEPTED_LIST_INVALID" | "SERVER_START_FAILED";

  constructor(code: CrossCheckError["code"], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
