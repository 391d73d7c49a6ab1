/**
 * ReplicationControllers: one replica by default, and without a selector or labels of their own
 * they take their template's (core/v1 defaulting); selectable by status.replicas. Validated as
 * ValidateReplicationController: a non-empty selector that selects the template, a template whose
 * pods always restart, non-negative counters.
 */
import {
  entriesOf,
  type FieldError,
  isObject,
  nonNegative,
  objectAt,
  required,
} from "../../validation/field-errors.js";
import { controllerTemplateErrors } from "../../validation/pod-template.js";
import { statusCounterErrors } from "../../validation/status-counters.js";
import { REPLICA_SET_STATUS } from "../apps/workload-status.js";
import { child, type Obj, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { defaultPodSpec } from "./pod-template-defaults.js";

function defaultReplicationController(obj: Obj): void {
  const spec = child(obj, "spec");
  set(spec, "replicas", 1);
  // The template is optional here (a pointer upstream): defaulted only when sent.
  const template = isObject(spec.template) ? spec.template : undefined;
  if (!template) return;
  defaultPodSpec(child(template, "spec"));
  const labels = objectAt(template.metadata).labels;
  if (!isObject(labels)) return;
  if (entriesOf(spec.selector).length === 0) spec.selector = { ...labels };
  const meta = child(obj, "metadata");
  if (entriesOf(meta.labels).length === 0) meta.labels = { ...labels };
}

function replicationControllerErrors(spec: Obj): FieldError[] {
  const out = nonNegative("spec.minReadySeconds", spec.minReadySeconds);
  const selector = Object.fromEntries(entriesOf(spec.selector));
  const empty = Object.keys(selector).length === 0;
  if (empty) out.push(required("spec.selector"));
  if (spec.replicas == null) out.push(required("spec.replicas"));
  else out.push(...nonNegative("spec.replicas", spec.replicas));
  if (!isObject(spec.template)) out.push(required("spec.template"));
  else {
    const labels = objectAt(objectAt(spec.template.metadata).labels);
    const matches = empty ? undefined : Object.entries(selector).every(([k, v]) => labels[k] === v);
    out.push(...controllerTemplateErrors(spec.template, matches, "ReplicationController", "spec.template"));
  }
  return out;
}

export const replicationcontrollers: KindStrategy = {
  group: "",
  resource: "replicationcontrollers",
  tracksGeneration: true,
  fieldLabels: ["status.replicas"],
  defaults: defaultReplicationController,
  validate: (obj, old, subresource) =>
    subresource === "status"
      ? statusCounterErrors(REPLICA_SET_STATUS, obj, old)
      : replicationControllerErrors(objectAt(obj.spec)),
};
