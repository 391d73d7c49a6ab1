/**
 * A pod's topology spread constraints (validateTopologySpreadConstraints upstream): a positive max
 * skew, a topology key, a known unsatisfiable action, each {topologyKey, whenUnsatisfiable} pair
 * once, minDomains only positive and with DoNotSchedule, known node inclusion policies, a valid
 * label selector, matchLabelKeys as label-keys.ts checks them (the selector-merge rules of 1.37).
 */
import {
  duplicate,
  type FieldError,
  invalid,
  isSet,
  listAt,
  notSupported,
  num,
  obj,
  required,
  str,
} from "./field-errors.js";
import { labelKeysErrors } from "./label-keys.js";
import { labelSelectorErrors } from "./selector-rules.js";

const NOT_POSITIVE = "must be greater than zero";
const ACTIONS = ["DoNotSchedule", "ScheduleAnyway"];
const NODE_POLICIES = ["Honor", "Ignore"];

function minDomainsErrors(minDomains: unknown, action: string, at: string): FieldError[] {
  if (!isSet(minDomains)) return [];
  const out: FieldError[] = [];
  if (num(minDomains) <= 0) out.push(invalid(at, minDomains, NOT_POSITIVE));
  if (action !== "DoNotSchedule")
    out.push(
      invalid(at, minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`),
    );
  return out;
}

function policyErrors(policy: unknown, at: string): FieldError[] {
  if (!isSet(policy) || NODE_POLICIES.includes(str(policy))) return [];
  return [notSupported(at, str(policy), NODE_POLICIES)];
}

const pairOf = (c: unknown): string => `{${str(obj(c).topologyKey)}, ${str(obj(c).whenUnsatisfiable)}}`;

/** validateTopologySpreadConstraints (the checked subset), for `spec.topologySpreadConstraints`. */
export function topologySpreadErrors(constraints: unknown, at: string): FieldError[] {
  const list = listAt(constraints);
  return list.flatMap((raw, i) => {
    const c = obj(raw);
    const cAt = `${at}[${i}]`;
    const out: FieldError[] = [];
    if (num(c.maxSkew) <= 0) out.push(invalid(`${cAt}.maxSkew`, num(c.maxSkew), NOT_POSITIVE));
    if (str(c.topologyKey) === "") out.push(required(`${cAt}.topologyKey`, "can not be empty"));
    const action = str(c.whenUnsatisfiable);
    if (!ACTIONS.includes(action)) out.push(notSupported(`${cAt}.whenUnsatisfiable`, action, ACTIONS));
    if (list.slice(i + 1).some((other) => pairOf(other) === pairOf(c)))
      out.push(duplicate(`${cAt}.{topologyKey, whenUnsatisfiable}`, pairOf(c)));
    out.push(...minDomainsErrors(c.minDomains, action, `${cAt}.minDomains`));
    out.push(...policyErrors(c.nodeAffinityPolicy, `${cAt}.nodeAffinityPolicy`));
    out.push(...policyErrors(c.nodeTaintsPolicy, `${cAt}.nodeTaintsPolicy`));
    out.push(...labelKeysErrors({ matchLabelKeys: c.matchLabelKeys, labelSelector: c.labelSelector }, cAt));
    out.push(...labelSelectorErrors(c.labelSelector, `${cAt}.labelSelector`));
    return out;
  });
}
