/** Spec cases for policy: PodDisruptionBudget bounds, selector and eviction policy. */
import { int, type Random, type SpecGroup, type SpecVariant, selectorVariants } from "./types.js";

function pdbs(rnd: Random): SpecVariant[] {
  const spec = (s: Record<string, unknown>) => ({ spec: s });
  const n = int(rnd, 0, 20);
  const out: SpecVariant[] = [
    ["empty", spec({})],
    ["min-int", spec({ minAvailable: n })],
    ["min-percent", spec({ minAvailable: `${int(rnd, 0, 100)}%` })],
    ["min-negative", spec({ minAvailable: -n - 1 })],
    ["min-over-100", spec({ minAvailable: `${int(rnd, 101, 999)}%` })],
    ["min-not-percent", spec({ minAvailable: "abc" })],
    ["min-percent-sign-only", spec({ minAvailable: "%" })],
    ["max-int", spec({ maxUnavailable: n })],
    ["max-negative", spec({ maxUnavailable: -1 })],
    ["max-over-100", spec({ maxUnavailable: "150%" })],
    ["max-decimal-percent", spec({ maxUnavailable: "1.5%" })],
    ["both", spec({ minAvailable: 1, maxUnavailable: 1 })],
    ["both-invalid", spec({ minAvailable: -1, maxUnavailable: "x" })],
    ["eviction-always", spec({ unhealthyPodEvictionPolicy: "AlwaysAllow" })],
    ["eviction-if-healthy", spec({ unhealthyPodEvictionPolicy: "IfHealthyBudget" })],
    ["eviction-bad", spec({ unhealthyPodEvictionPolicy: "Sometimes" })],
    ["no-spec", {}],
  ];
  for (const [v, sel] of selectorVariants(rnd)) out.push([v, spec({ minAvailable: 1, selector: sel })]);
  return out;
}

export const policy: SpecGroup = {
  name: "policy",
  kinds: [{ id: "policy/poddisruptionbudgets", variants: pdbs }],
};
