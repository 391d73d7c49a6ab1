/** PodDisruptionBudgets: spec changes bump metadata.generation. */
import type { KindStrategy } from "../strategy.js";

export const poddisruptionbudgets: KindStrategy = {
  group: "policy",
  resource: "poddisruptionbudgets",
  tracksGeneration: true,
};
