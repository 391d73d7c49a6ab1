/**
 * CEL admission policies: MutatingAdmissionPolicy (mutating phase, last) and
 * ValidatingAdmissionPolicy (validating phase), each read from the store with its bindings.
 */
export { mutatingAdmissionPolicy } from "./mutating.js";
export type { ApplyMerge } from "./mutating-policy.js";
export { validatingAdmissionPolicy } from "./validating.js";
