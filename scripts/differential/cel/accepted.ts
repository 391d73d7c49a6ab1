/**
 * Disagreements the suite accepts, each one an entry of docs/divergences.md
 * (the id is checked to be there): a predicate over the case and the reason.
 */
import { readFileSync } from "node:fs";
import type { Case, Outcome } from "./compare.js";

interface Accepted {
  /** The entry in docs/divergences.md. */
  readonly id: string;
  readonly matches: (c: Case) => boolean;
}

const CONTRIBUTED = "contributed to estimated rule cost total exceeding cost limit";
const withoutContributors = (o: Outcome) => o.causes.filter((c) => !c.includes(CONTRIBUTED)).join("\n");

const ACCEPTED: readonly Accepted[] = [
  {
    // Which expressions upstream names as contributors when several are estimated at the maximum
    // depends on Go's map order and unstable sort; the rest of the answer must still agree.
    id: "CEL1",
    matches: (c) =>
      c.ref.status === c.real.status && withoutContributors(c.ref) === withoutContributors(c.real),
  },
];

const divergences = readFileSync(new URL("../../../docs/divergences.md", import.meta.url), "utf8");
for (const a of ACCEPTED)
  if (!divergences.includes(`${a.id}.`))
    throw new Error(`accepted.ts: ${a.id} is not in docs/divergences.md`);

/** The divergence that explains a disagreement, or undefined. */
export function explain(c: Case): string | undefined {
  return ACCEPTED.find((a) => a.matches(c))?.id;
}
