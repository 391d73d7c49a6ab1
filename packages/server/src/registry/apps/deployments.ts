/**
 * Deployments: one replica, RollingUpdate 25%/25%, ten revisions, a ten-minute progress deadline;
 * validated as ValidateDeployment and ValidateDeploymentUpdate (the selector is immutable).
 */

import {
  type FieldError,
  forbidden,
  goStruct,
  invalid,
  isObject,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "../../validation/field-errors.js";
import { selectorUnchanged } from "../../validation/label-selector.js";
import { statusCounterErrors } from "../../validation/status-counters.js";
import { defaultRollingUpdate, defaultTemplate } from "../core/pod-template-defaults.js";
import { child, set } from "../default-fields.js";
import { generationCounts } from "../generation-bump.js";
import type { KindStrategy } from "../strategy.js";
import { selectedTemplateErrors } from "./replicaset-rules.js";
import {
  atMost100Percent,
  counterErrors,
  intOrPercentErrors,
  intOrPercentValue,
  intOrString,
  rollingUpdateShown,
} from "./workload-rules.js";
import { DEPLOYMENT_STATUS } from "./workload-status.js";

type Json = Record<string, unknown>;

function rollingUpdateErrors(ru: Json, at: string): FieldError[] {
  const out = [
    ...intOrPercentErrors(ru.maxUnavailable, `${at}.maxUnavailable`),
    ...intOrPercentErrors(ru.maxSurge, `${at}.maxSurge`),
  ];
  if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0)
    out.push(
      invalid(`${at}.maxUnavailable`, intOrString(ru.maxUnavailable), "may not be 0 when `maxSurge` is 0"),
    );
  out.push(...atMost100Percent(ru.maxUnavailable, `${at}.maxUnavailable`));
  return out;
}

function strategyErrors(strategy: Json): FieldError[] {
  const type = stringAt(strategy.type);
  const ru = strategy.rollingUpdate;
  if (type === "Recreate")
    return isObject(ru)
      ? [forbidden("spec.strategy.rollingUpdate", "may not be specified when strategy `type` is 'Recreate'")]
      : [];
  if (type === "RollingUpdate")
    return isObject(ru)
      ? rollingUpdateErrors(ru, "spec.strategy.rollingUpdate")
      : [required("spec.strategy.rollingUpdate", "this should be defaulted and never be nil")];
  const shown = rollingUpdateShown(ru);
  return [
    notSupported(
      "spec.strategy",
      goStruct([
        ["Type", type],
        ["RollingUpdate", shown],
      ]),
      ["Recreate", "RollingUpdate"],
    ),
  ];
}

function deploymentSpecErrors(spec: Json): FieldError[] {
  const out = [...counterErrors(spec, ["replicas"]), ...selectedTemplateErrors(spec)];
  out.push(...strategyErrors(objectAt(spec.strategy)));
  out.push(...counterErrors(spec, ["minReadySeconds", "revisionHistoryLimit", "progressDeadlineSeconds"]));
  const deadline = spec.progressDeadlineSeconds;
  const minReady = typeof spec.minReadySeconds === "number" ? spec.minReadySeconds : 0;
  if (typeof deadline === "number" && deadline <= minReady)
    out.push(invalid("spec.progressDeadlineSeconds", deadline, "must be greater than minReadySeconds"));
  return out;
}

export const deployments: KindStrategy = {
  group: "apps",
  resource: "deployments",
  // A status write keeps annotations (the controller writes the revision that way), not labels.
  statusResetsMetadata: ["labels"],
  tracksGeneration: true,
  prepareUpdate: generationCounts("annotations"),
  defaults(obj) {
    const spec = child(obj, "spec");
    set(spec, "replicas", 1);
    defaultRollingUpdate(child(spec, "strategy"), { maxUnavailable: "25%", maxSurge: "25%" });
    set(spec, "revisionHistoryLimit", 10);
    set(spec, "progressDeadlineSeconds", 600);
    defaultTemplate(spec);
  },
  validate(obj, old, subresource) {
    if (subresource === "status") return statusCounterErrors(DEPLOYMENT_STATUS, obj, old);
    const spec = objectAt(obj.spec);
    const out = deploymentSpecErrors(spec);
    if (old) out.push(...selectorUnchanged(spec, objectAt(old.spec)));
    return out;
  },
};
