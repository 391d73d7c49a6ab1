/** NetworkPolicies: spec changes bump metadata.generation. */
import type { KindStrategy } from "../strategy.js";

export const networkpolicies: KindStrategy = {
  group: "networking.k8s.io",
  resource: "networkpolicies",
  tracksGeneration: true,
};
