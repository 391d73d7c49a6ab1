/**
 * Leases: a positive duration, non-negative transitions, a known strategy (or a qualified name
 * with a slash), and a preferred holder only together with a strategy.
 */
import type { FieldError } from "../../api/status.js";
import {
  forbidden,
  invalid,
  isSet,
  type Json,
  notSupported,
  obj,
  str,
} from "../../validation/field-errors.js";
import { qualifiedNameProblems } from "../../validation/object-meta.js";
import { isObj } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

const STRATEGIES = ["OldestEmulationVersion"];

function strategyErrors(strategy: string, field: string): FieldError[] {
  if (!strategy.includes("/"))
    return STRATEGIES.includes(strategy) ? [] : [notSupported(field, strategy, STRATEGIES)];
  return qualifiedNameProblems(strategy).map((m) => invalid(field, strategy, m));
}

function leaseErrors(lease: Json): FieldError[] {
  const spec = obj(lease.spec);
  const errs: FieldError[] = [];
  const duration = spec.leaseDurationSeconds;
  if (typeof duration === "number" && duration <= 0)
    errs.push(invalid("spec.leaseDurationSeconds", duration, "must be greater than 0"));
  const transitions = spec.leaseTransitions;
  if (typeof transitions === "number" && transitions < 0)
    errs.push(invalid("spec.leaseTransitions", transitions, "must be greater than or equal to 0"));
  // Upstream reports the strategy at spec.strategy.strategy: it adds the child twice.
  if (isSet(spec.strategy)) errs.push(...strategyErrors(str(spec.strategy), "spec.strategy.strategy"));
  if (str(spec.preferredHolder) !== "" && str(spec.strategy) === "")
    errs.push(forbidden("spec.preferredHolder", "may only be specified if `strategy` is defined"));
  return errs;
}

/** The CoordinatedLeaderElection gate is off in 1.37: its fields are dropped unless already stored. */
const GATED = ["strategy", "preferredHolder"];

export const leases: KindStrategy = {
  group: "coordination.k8s.io",
  resource: "leases",
  prepareCreate(lease) {
    const spec = lease.spec;
    if (isObj(spec)) for (const key of GATED) delete spec[key];
  },
  prepareUpdate(next, old) {
    const spec = next.spec;
    const before = obj(old.spec);
    if (isObj(spec)) for (const key of GATED) if (!isSet(before[key])) delete spec[key];
  },
  validate: leaseErrors,
};
