/** ValidatingAdmissionPolicies: spec changes bump metadata.generation. */
import { type KindStrategy, RESET_FOR_STATUS } from "../strategy.js";

export const validatingadmissionpolicies: KindStrategy = {
  group: "admissionregistration.k8s.io",
  resource: "validatingadmissionpolicies",
  statusResetsMetadata: RESET_FOR_STATUS,
  tracksGeneration: true,
};
