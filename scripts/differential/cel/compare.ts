/**
 * What the differential suite compares of two replies: the status code, the
 * causes (field, reason, message) as a sorted list, and the message when there
 * is one cause (with several, Go's map order makes the joined message's order
 * vary). Go pointer addresses (%#v of a rule's Reason) are masked.
 */
import type { Reply } from "./servers.js";

export interface Outcome {
  readonly status: number;
  readonly causes: readonly string[];
  readonly message: string;
}

const mask = (s: string) => s.replace(/0x[0-9a-f]{6,}/g, "0x…");

export function outcome(r: Reply): Outcome {
  const causes: { field?: string; reason?: string; message?: string }[] = r.json?.details?.causes ?? [];
  const rows = causes.map((c) => mask(`${c.field ?? ""} | ${c.reason ?? ""} | ${c.message ?? ""}`)).sort();
  const message = r.status >= 400 && rows.length <= 1 ? mask(String(r.json?.message ?? "")) : "";
  return { status: r.status, causes: rows, message };
}

/** One request sent to both servers, with what each answered. */
export interface Case {
  readonly label: string;
  readonly request: unknown;
  readonly ref: Outcome;
  readonly real: Outcome;
}

export function differs(a: Outcome, b: Outcome): boolean {
  return a.status !== b.status || a.message !== b.message || a.causes.join("\n") !== b.causes.join("\n");
}
