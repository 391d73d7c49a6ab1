/**
 * ValidatingAdmissionPolicyBindings and MutatingAdmissionPolicyBindings: upstream's defaults of
 * matchResources and validation of policyName, paramRef, matchResources and (validating)
 * validationActions: at least one, no duplicates, not both Deny and Warn.
 */
import type { FieldError } from "../../api/status.js";
import { duplicate } from "../../validation/field-errors.js";
import type { KindStrategy } from "../strategy.js";
import {
  defaultMatchResources,
  isObj,
  notSupported,
  type Obj,
  required,
  validateMatchResources,
  validateMutatingOperations,
  validateParamRef,
  validatePolicyName,
} from "./policy-fields.js";

const ACTIONS = ["Audit", "Deny", "Warn"];

function validateActions(value: unknown): FieldError[] {
  const path = "spec.validationActions";
  const actions = Array.isArray(value) ? value.map(String) : [];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!ACTIONS.includes(a)) errs.push(notSupported(`${path}[${i}]`, a, ACTIONS));
    if (seen.has(a)) errs.push(duplicate(`${path}[${i}]`, a));
    seen.add(a);
  });
  if (seen.has("Deny") && seen.has("Warn"))
    errs.push({
      type: "FieldValueInvalid",
      field: path,
      value: actions,
      detail:
        "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
    });
  // Declarative validation reports this one (upstream 1.37), without the handwritten detail.
  if (seen.size === 0) errs.push(required(path));
  return errs;
}

function bindingChecks(spec: Obj): FieldError[] {
  return [
    ...validatePolicyName(spec, "spec"),
    ...validateParamRef(spec.paramRef, "spec.paramRef"),
    ...validateMatchResources(spec.matchResources, "spec.matchResources"),
  ];
}

const defaults = (obj: Record<string, unknown>) => {
  if (isObj(obj.spec)) defaultMatchResources(obj.spec.matchResources);
};

export const validatingadmissionpolicybindings: KindStrategy = {
  group: "admissionregistration.k8s.io",
  resource: "validatingadmissionpolicybindings",
  tracksGeneration: true,
  defaults,
  validate(obj) {
    const spec = isObj(obj.spec) ? obj.spec : {};
    return [...bindingChecks(spec), ...validateActions(spec.validationActions)];
  },
};

export const mutatingadmissionpolicybindings: KindStrategy = {
  group: "admissionregistration.k8s.io",
  resource: "mutatingadmissionpolicybindings",
  tracksGeneration: true,
  defaults,
  validate(obj) {
    const spec = isObj(obj.spec) ? obj.spec : {};
    return [
      ...bindingChecks(spec),
      ...validateMutatingOperations(spec.matchResources, "spec.matchResources"),
    ];
  },
};
