/**
 * PriorityClasses: preempt lower priorities by default. Names with the `system-` prefix are the
 * two system classes with their own values; other values are at most one billion; the value and
 * the preemption policy never change.
 */
import type { FieldError } from "../../api/status.js";
import {
  forbidden,
  immutable,
  isSet,
  type Json,
  notSupported,
  obj,
  required,
  str,
} from "../../validation/field-errors.js";
import { set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

const HIGHEST_USER_PRIORITY = 1_000_000_000;
const SYSTEM_CLASSES: Readonly<Record<string, number>> = {
  "system-node-critical": 2_000_001_000,
  "system-cluster-critical": 2_000_000_000,
};
const POLICIES = ["PreemptLowerPriority", "Never"];

/** Why a `system-` class is refused, or undefined when it is one of the known ones. */
function systemClassProblem(name: string, value: unknown, globalDefault: boolean): string | undefined {
  const known = SYSTEM_CLASSES[name];
  if (known === undefined) return `${name} is not a known system priority class`;
  if (value !== known) return `value of ${name} PriorityClass must be ${known}`;
  return globalDefault ? `globalDefault of ${name} PriorityClass must be false` : undefined;
}

function priorityClassErrors(pc: Json, old: Json | undefined): FieldError[] {
  const value = typeof pc.value === "number" ? pc.value : 0;
  if (old) {
    const errs: FieldError[] = [];
    if (value !== (typeof old.value === "number" ? old.value : 0))
      errs.push(forbidden("value", "may not be changed in an update."));
    if (str(pc.preemptionPolicy) !== str(old.preemptionPolicy))
      errs.push(immutable("preemptionPolicy", pc.preemptionPolicy ?? null));
    return errs;
  }
  const errs: FieldError[] = [];
  const name = str(obj(pc.metadata).name);
  if (name.startsWith("system-")) {
    const problem = systemClassProblem(name, value, pc.globalDefault === true);
    if (problem)
      errs.push(
        forbidden(
          "metadata.name",
          `priority class names with 'system-' prefix are reserved for system use only. error: ${problem}`,
        ),
      );
  } else if (value > HIGHEST_USER_PRIORITY)
    errs.push(
      forbidden("value", `maximum allowed value of a user defined priority is ${HIGHEST_USER_PRIORITY}`),
    );
  if (isSet(pc.preemptionPolicy)) {
    const policy = str(pc.preemptionPolicy);
    if (policy === "") errs.push(required("preemptionPolicy"));
    else if (!POLICIES.includes(policy)) errs.push(notSupported("preemptionPolicy", policy, POLICIES));
  }
  return errs;
}

export const priorityclasses: KindStrategy = {
  group: "scheduling.k8s.io",
  resource: "priorityclasses",
  defaults(obj) {
    set(obj, "preemptionPolicy", "PreemptLowerPriority");
  },
  // Generation 1 from the create on, never bumped by an update (upstream's PrepareForCreate only).
  prepareCreate(pc) {
    pc.metadata = { ...obj(pc.metadata), generation: 1 };
  },
  validate: priorityClassErrors,
};
