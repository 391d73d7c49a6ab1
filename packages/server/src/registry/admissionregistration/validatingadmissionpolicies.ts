/** ValidatingAdmissionPolicies: spec changes bump metadata.generation. */
import type { KindStrategy } from "../strategy.js";

export const validatingadmissionpolicies: KindStrategy = {
  group: "admissionregistration.k8s.io",
  resource: "validatingadmissionpolicies",
  tracksGeneration: true,
};
