/** MutatingAdmissionPolicies: spec changes bump metadata.generation. */
import type { KindStrategy } from "../strategy.js";

export const mutatingadmissionpolicies: KindStrategy = {
  group: "admissionregistration.k8s.io",
  resource: "mutatingadmissionpolicies",
  tracksGeneration: true,
};
