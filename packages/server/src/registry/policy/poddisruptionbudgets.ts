/**
 * PodDisruptionBudgets: spec changes bump metadata.generation. At most one of minAvailable and
 * maxUnavailable, each a non-negative integer or a percentage up to 100%; a valid label selector;
 * a known unhealthy-pod eviction policy.
 */
import type { FieldError } from "../../api/status.js";
import { conditionListErrors } from "../../validation/condition-rules.js";
import {
  arr,
  FieldErrors,
  invalid,
  isSet,
  type Json,
  notSupported,
  obj,
  str,
} from "../../validation/field-errors.js";
import { type IntOrString, intOrPercentErrors, NEGATIVE } from "../../validation/format-rules.js";
import { labelSelectorErrors } from "../../validation/selector-rules.js";
import type { KindStrategy } from "../strategy.js";

const EVICTION_POLICIES = ["AlwaysAllow", "IfHealthyBudget"];

/** The spec as the message prints it: the internal struct as JSON, Go field names and nulls included. */
function specValue(spec: Json): unknown {
  return {
    MinAvailable: spec.minAvailable ?? null,
    Selector: spec.selector ?? null,
    MaxUnavailable: spec.maxUnavailable ?? null,
    UnhealthyPodEvictionPolicy: spec.unhealthyPodEvictionPolicy ?? null,
  };
}

function pdbErrors(pdb: Json, old: Json | undefined): FieldError[] {
  const spec = obj(pdb.spec);
  const errs: FieldError[] = [];
  if (isSet(spec.minAvailable) && isSet(spec.maxUnavailable))
    errs.push(invalid("spec", specValue(spec), "minAvailable and maxUnavailable cannot be both set"));
  for (const key of ["minAvailable", "maxUnavailable"])
    if (isSet(spec[key])) errs.push(...intOrPercentErrors(`spec.${key}`, spec[key] as IntOrString));
  const oldSelectorInvalid = old !== undefined && labelSelectorErrors(obj(old.spec).selector, "").length > 0;
  errs.push(
    ...labelSelectorErrors(spec.selector, "spec.selector", { allowInvalidLabelValues: oldSelectorInvalid }),
  );
  if (
    isSet(spec.unhealthyPodEvictionPolicy) &&
    !EVICTION_POLICIES.includes(str(spec.unhealthyPodEvictionPolicy))
  )
    errs.push(
      notSupported(
        "spec.unhealthyPodEvictionPolicy",
        str(spec.unhealthyPodEvictionPolicy),
        EVICTION_POLICIES,
      ),
    );
  return errs;
}

/** A /status write is held to the status rules instead: valid conditions, non-negative counters. */
function pdbStatusErrors(pdb: Json): FieldError[] {
  const status = obj(pdb.status);
  const out = new FieldErrors();
  conditionListErrors(arr(status.conditions), "status.conditions", out);
  for (const key of ["disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"]) {
    const n = status[key];
    if (typeof n === "number" && n < 0) out.add(invalid(`status.${key}`, n, NEGATIVE));
  }
  return out.list();
}

export const poddisruptionbudgets: KindStrategy = {
  group: "policy",
  resource: "poddisruptionbudgets",
  tracksGeneration: true,
  validate: (pdb, old, subresource) =>
    subresource === "status" ? pdbStatusErrors(pdb) : pdbErrors(pdb, old),
};
