/**
 * Reading a 422 Invalid Status the way contract tests compare it: the causes as
 * `field | reason | message` strings, sorted (Go's map order makes upstream's cause order random).
 */
import type { CallResult } from "./target.js";

export interface InvalidAnswer {
  readonly status: number;
  readonly reason: string | undefined;
  readonly causes: string[];
}

export function invalidAnswer(res: CallResult): InvalidAnswer {
  // biome-ignore lint/suspicious/noExplicitAny: Status causes are arbitrary JSON.
  const causes: any[] = res.json?.details?.causes ?? [];
  return {
    status: res.status,
    reason: res.json?.reason,
    causes: causes.map((c) => `${c.field ?? ""} | ${c.reason ?? ""} | ${c.message ?? ""}`).sort(),
  };
}

/** The answer expected for `causes` (given unsorted). */
export function invalidWith(...causes: string[]): InvalidAnswer {
  return { status: 422, reason: "Invalid", causes: [...causes].sort() };
}
