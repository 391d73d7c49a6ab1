/**
 * ValidatingAdmissionPolicies: spec changes bump metadata.generation; upstream's defaults
 * (failurePolicy Fail, matchConstraints' matchPolicy, selectors and rule scope) and validation of
 * the spec, its CEL expressions compiled as admission compiles them.
 */
import type { FieldError } from "../../api/status.js";
import { type KindStrategy, RESET_FOR_STATUS } from "../strategy.js";
import {
  type ExpressionScope,
  validateMatchConditions,
  validateValidations,
  validateVariables,
} from "./policy-expressions.js";
import {
  defaultMatchResources,
  isObj,
  notSupported,
  type Obj,
  required,
  validateMatchResources,
  validateParamKind,
} from "./policy-fields.js";

/** The spec checks shared by the policy kinds: failurePolicy, paramKind, matchConstraints, matchConditions, variables. */
export function validatePolicyCommon(spec: Obj): { errs: FieldError[]; scope: ExpressionScope } {
  const errs: FieldError[] = [];
  if (spec.failurePolicy === undefined) errs.push(required("spec.failurePolicy"));
  else if (spec.failurePolicy !== "Fail" && spec.failurePolicy !== "Ignore")
    errs.push(notSupported("spec.failurePolicy", spec.failurePolicy, ["Fail", "Ignore"]));
  const params = isObj(spec.paramKind);
  if (isObj(spec.paramKind)) errs.push(...validateParamKind(spec.paramKind, "spec.paramKind"));
  const mc = spec.matchConstraints;
  if (!isObj(mc)) errs.push(required("spec.matchConstraints"));
  else {
    errs.push(...validateMatchResources(mc, "spec.matchConstraints"));
    // At least one resource rule gives the expressions their types.
    if (!Array.isArray(mc.resourceRules) || mc.resourceRules.length === 0)
      errs.push(required("spec.matchConstraints.resourceRules"));
  }
  errs.push(...validateMatchConditions(spec.matchConditions, "spec.matchConditions", params));
  const variables = validateVariables(spec.variables, "spec.variables", params);
  errs.push(...variables.errs);
  return { errs, scope: variables.scope };
}

export const validatingadmissionpolicies: KindStrategy = {
  group: "admissionregistration.k8s.io",
  resource: "validatingadmissionpolicies",
  statusResetsMetadata: RESET_FOR_STATUS,
  tracksGeneration: true,
  defaults(obj) {
    const spec = isObj(obj.spec) ? obj.spec : undefined;
    if (!spec) return;
    spec.failurePolicy ??= "Fail";
    defaultMatchResources(spec.matchConstraints);
  },
  validate(obj) {
    const spec = isObj(obj.spec) ? obj.spec : {};
    const name = String((obj.metadata as Obj | undefined)?.name ?? "");
    const { errs, scope } = validatePolicyCommon(spec);
    return [...errs, ...validateValidations(spec, "spec", name, scope)];
  },
};
