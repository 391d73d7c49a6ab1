/**
 * MutatingAdmissionPolicies: spec changes bump metadata.generation; upstream's defaults
 * (failurePolicy Fail, matchConstraints' defaults) and validation: the common policy checks,
 * operations a mutation can act on (no DELETE), mutations and reinvocationPolicy.
 */
import type { KindStrategy } from "../strategy.js";
import { validateMutations } from "./policy-expressions.js";
import {
  defaultMatchResources,
  isObj,
  notSupported,
  required,
  validateMutatingOperations,
} from "./policy-fields.js";
import { validatePolicyCommon } from "./validatingadmissionpolicies.js";

export const mutatingadmissionpolicies: KindStrategy = {
  group: "admissionregistration.k8s.io",
  resource: "mutatingadmissionpolicies",
  tracksGeneration: true,
  defaults(obj) {
    const spec = isObj(obj.spec) ? obj.spec : undefined;
    if (!spec) return;
    spec.failurePolicy ??= "Fail";
    defaultMatchResources(spec.matchConstraints);
  },
  validate(obj) {
    const spec = isObj(obj.spec) ? obj.spec : {};
    const { errs, scope } = validatePolicyCommon(spec);
    errs.push(...validateMutatingOperations(spec.matchConstraints, "spec.matchConstraints"));
    errs.push(...validateMutations(spec.mutations, "spec.mutations", scope));
    const reinvocation = spec.reinvocationPolicy;
    if (reinvocation === undefined || reinvocation === "") errs.push(required("spec.reinvocationPolicy"));
    else if (reinvocation !== "Never" && reinvocation !== "IfNeeded")
      errs.push(notSupported("spec.reinvocationPolicy", reinvocation, ["IfNeeded", "Never"]));
    return errs;
  },
};
