/**
 * ValidateReplicaSetSpec, shared by ReplicaSets and Deployments: replicas and minReadySeconds, the
 * selector, and, when the selector converts, the template (ValidatePodTemplateSpecForReplicaSet).
 */
import { type FieldError, invalid, objectAt } from "../../validation/field-errors.js";
import { renderSelector } from "../../validation/label-selector.js";
import { controllerTemplateErrors } from "../../validation/pod-template.js";
import { counterErrors, selectorCheck } from "./workload-rules.js";

type Json = Record<string, unknown>;

/** The selector and template part of ValidateReplicaSetSpec / ValidateDeploymentSpec. */
export function selectedTemplateErrors(spec: Json): FieldError[] {
  const sel = selectorCheck(spec, "deployment");
  const out = [...sel.errors];
  if (!sel.converts)
    out.push(invalid("spec.selector", renderSelector(spec.selector), "invalid label selector"));
  else
    out.push(
      ...controllerTemplateErrors(objectAt(spec.template), sel.matches, "ReplicaSet", "spec.template"),
    );
  return out;
}

export function replicaSetSpecErrors(spec: Json): FieldError[] {
  return [...counterErrors(spec, ["replicas", "minReadySeconds"]), ...selectedTemplateErrors(spec)];
}
