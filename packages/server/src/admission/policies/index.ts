/**
 * CEL admission policies: MutatingAdmissionPolicy (mutating phase, last) and
 * ValidatingAdmissionPolicy (validating phase), each read from the store with its bindings.
 * Webhooks reuse the matching (matchResources-style selectors and rules) and the CEL input of a
 * request (for matchConditions: cel/admission's compileMatchConditions).
 */

export { isExemptFromPolicies, ruleMatches, selectorMatches } from "./matching.js";
export { mutatingAdmissionPolicy } from "./mutating.js";
export type { ApplyMerge } from "./mutating-policy.js";
export { admissionInput } from "./request-input.js";
export { validatingAdmissionPolicy } from "./validating.js";
