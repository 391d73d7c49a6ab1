/**
 * DaemonSets: RollingUpdate one node at a time, ten revisions; validated as ValidateDaemonSet and
 * ValidateDaemonSetUpdate (the selector is immutable); the template generation is
 * daemonset-template-generation.ts's. An unset selector is not reported as
 * missing upstream: it selects nothing, so the template's labels do not match it.
 */

import {
  type FieldError,
  goStruct,
  invalid,
  isObject,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "../../validation/field-errors.js";
import { selectorUnchanged } from "../../validation/label-selector.js";
import { alwaysRestartErrors, podTemplateSpecErrors } from "../../validation/pod-template.js";
import { statusCounterErrors } from "../../validation/status-counters.js";
import { defaultRollingUpdate, defaultTemplate } from "../core/pod-template-defaults.js";
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import {
  annotateTemplateGeneration,
  prepareTemplateGenerationOnCreate,
  prepareTemplateGenerationOnUpdate,
} from "./daemonset-template-generation.js";
import {
  atMost100Percent,
  counterErrors,
  intOrPercentErrors,
  intOrPercentValue,
  intOrString,
  rollingUpdateShown,
  selectorCheck,
} from "./workload-rules.js";
import { DAEMON_SET_STATUS } from "./workload-status.js";

type Json = Record<string, unknown>;

function rollingUpdateErrors(ru: Json): FieldError[] {
  const at = "spec.updateStrategy.rollingUpdate";
  const out: FieldError[] = [];
  for (const k of ["maxUnavailable", "maxSurge"]) out.push(...intOrPercentErrors(ru[k], `${at}.${k}`));
  for (const k of ["maxUnavailable", "maxSurge"]) out.push(...atMost100Percent(ru[k], `${at}.${k}`));
  const unavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
  const surge = intOrPercentValue(ru.maxSurge) !== 0;
  if (unavailable && surge)
    out.push(
      invalid(`${at}.maxSurge`, intOrString(ru.maxSurge), "may not be set when maxUnavailable is non-zero"),
    );
  if (!unavailable && !surge) out.push(required(`${at}.maxUnavailable`, "cannot be 0 when maxSurge is 0"));
  return out;
}

function updateStrategyErrors(strategy: Json): FieldError[] {
  const type = stringAt(strategy.type);
  const ru = strategy.rollingUpdate;
  if (type === "OnDelete") return [];
  if (type === "RollingUpdate")
    return isObject(ru) ? rollingUpdateErrors(ru) : [required("spec.updateStrategy.rollingUpdate")];
  const shown = rollingUpdateShown(ru);
  return [
    notSupported(
      "spec.updateStrategy",
      goStruct([
        ["Type", type],
        ["RollingUpdate", shown],
      ]),
      ["RollingUpdate", "OnDelete"],
    ),
  ];
}

function daemonSetSpecErrors(spec: Json): FieldError[] {
  const template = objectAt(spec.template);
  const sel = selectorCheck(spec, "daemonset", true);
  const out: FieldError[] = [];
  const [selectorErrs, emptyErrs] = [
    sel.errors.filter((e) => !e.detail.startsWith("empty selector")),
    sel.errors.filter((e) => e.detail.startsWith("empty selector")),
  ];
  out.push(...selectorErrs);
  if (sel.converts && sel.matches === false)
    out.push(
      invalid(
        "spec.template.metadata.labels",
        objectAt(template.metadata).labels ?? null,
        "`selector` does not match template `labels`",
      ),
    );
  out.push(...emptyErrs);
  out.push(
    ...podTemplateSpecErrors(template, "spec.template"),
    ...alwaysRestartErrors(template, "DaemonSet", "spec.template"),
  );
  out.push(...counterErrors(spec, ["minReadySeconds", "templateGeneration"]));
  out.push(...updateStrategyErrors(objectAt(spec.updateStrategy)));
  out.push(...counterErrors(spec, ["revisionHistoryLimit"]));
  return out;
}

export const daemonsets: KindStrategy = {
  group: "apps",
  resource: "daemonsets",
  tracksGeneration: true,
  defaults(obj) {
    const spec = child(obj, "spec");
    defaultRollingUpdate(child(spec, "updateStrategy"), { maxUnavailable: 1, maxSurge: 0 });
    set(spec, "revisionHistoryLimit", 10);
    defaultTemplate(spec);
    annotateTemplateGeneration(obj);
  },
  prepareCreate: prepareTemplateGenerationOnCreate,
  prepareUpdate: prepareTemplateGenerationOnUpdate,
  validate(obj, old, subresource) {
    if (subresource === "status") return statusCounterErrors(DAEMON_SET_STATUS, obj, old);
    const spec = objectAt(obj.spec);
    const out = daemonSetSpecErrors(spec);
    if (old) out.push(...selectorUnchanged(spec, objectAt(old.spec)));
    return out;
  },
};
