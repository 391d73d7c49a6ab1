/** NetworkPolicies: spec changes bump metadata.generation; validated as upstream (networkpolicy-rules.ts). */
import type { KindStrategy } from "../strategy.js";
import { defaultNetworkPolicy, networkPolicyErrors } from "./networkpolicy-rules.js";

export const networkpolicies: KindStrategy = {
  group: "networking.k8s.io",
  resource: "networkpolicies",
  tracksGeneration: true,
  defaults: defaultNetworkPolicy,
  validate: networkPolicyErrors,
};
