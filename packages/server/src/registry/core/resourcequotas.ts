/**
 * ResourceQuotas: hard limits on quota resource names with valid quantities, and scopes (listed or
 * selected) that exist, apply to the limited resources and do not conflict (ValidateResourceQuota).
 */
import {
  type FieldError,
  invalid,
  isObject,
  listAt,
  objectAt,
  required,
  stringAt,
} from "../../validation/field-errors.js";
import {
  isStandardQuotaResource,
  quantityValueErrors,
  resourceNameErrors,
} from "../../validation/resources.js";
import type { KindStrategy } from "../strategy.js";

type Json = Record<string, unknown>;

const SCOPES = new Set([
  "Terminating",
  "NotTerminating",
  "BestEffort",
  "NotBestEffort",
  "PriorityClass",
  "VolumeAttributesClass",
  "CrossNamespacePodAffinity",
]);
const POD_COMPUTE = new Set([
  "pods",
  "cpu",
  "memory",
  "limits.cpu",
  "limits.memory",
  "requests.cpu",
  "requests.memory",
]);
const EXISTS_ONLY = new Set([
  "BestEffort",
  "NotBestEffort",
  "Terminating",
  "NotTerminating",
  "CrossNamespacePodAffinity",
]);
const CONFLICTS = [
  ["BestEffort", "NotBestEffort"],
  ["Terminating", "NotTerminating"],
];

const isQuotaResource = isStandardQuotaResource;

function scopeAppliesTo(scope: string, resource: string): boolean {
  if (scope === "BestEffort") return resource === "pods";
  if (scope === "VolumeAttributesClass")
    return resource === "persistentvolumeclaims" || resource === "requests.storage";
  if (SCOPES.has(scope)) return POD_COMPUTE.has(resource);
  return true;
}

/** Quota resource names with valid quantities, under `at` (spec.hard, status.hard, status.used). */
function hardErrors(hard: unknown, at = "spec.hard"): FieldError[] {
  if (!isObject(hard)) return [];
  return Object.entries(hard).flatMap(([k, v]) => {
    const field = `${at}[${k}]`;
    const out = resourceNameErrors(k, field);
    if (!k.includes("/") && !isQuotaResource(k))
      out.push(invalid(field, k, "must be a standard resource for quota"));
    return [...out, ...quantityValueErrors(k, String(v), field)];
  });
}

function scopeErrors(spec: Json, hard: string[]): FieldError[] {
  const scopes = listAt(spec.scopes).map(stringAt);
  const out: FieldError[] = [];
  for (const scope of scopes) {
    if (!SCOPES.has(scope)) out.push(invalid("spec.scopes", scopes, "unsupported scope"));
    for (const k of hard)
      if (isQuotaResource(k) && !scopeAppliesTo(scope, k))
        out.push(invalid("spec.scopes", scopes, "unsupported scope applied to resource"));
  }
  for (const pair of CONFLICTS)
    if (pair.every((s) => scopes.includes(s))) out.push(invalid("spec.scopes", scopes, "conflicting scopes"));
  return out;
}

function scopeSelectorErrors(spec: Json, hard: string[]): FieldError[] {
  if (!isObject(spec.scopeSelector)) return [];
  const at = "spec.scopeSelector.matchExpressions";
  const out: FieldError[] = [];
  const names = new Set<string>();
  for (const raw of listAt(spec.scopeSelector.matchExpressions)) {
    const req = objectAt(raw);
    const scope = stringAt(req.scopeName);
    const operator = stringAt(req.operator);
    const values = listAt(req.values);
    if (!SCOPES.has(scope)) out.push(invalid(`${at}.scopeName`, scope, "unsupported scope"));
    for (const k of hard)
      if (isQuotaResource(k) && !scopeAppliesTo(scope, k))
        out.push(invalid(at, spec.scopeSelector, "unsupported scope applied to resource"));
    if (EXISTS_ONLY.has(scope) && operator !== "Exists")
      out.push(
        invalid(
          `${at}.operator`,
          operator,
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    if (operator === "In" || operator === "NotIn") {
      if (values.length === 0)
        out.push(
          required(
            `${at}.values`,
            "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
          ),
        );
    } else if (operator === "Exists" || operator === "DoesNotExist") {
      if (values.length > 0)
        out.push(
          invalid(
            `${at}.values`,
            values,
            "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
          ),
        );
    } else out.push(invalid(`${at}.operator`, operator, "not a valid selector operator"));
    names.add(scope);
  }
  for (const pair of CONFLICTS)
    if (pair.every((s) => names.has(s))) out.push(invalid(at, spec.scopes ?? null, "conflicting scopes"));
  return out;
}

function resourceQuotaErrors(spec: Json): FieldError[] {
  const hard = isObject(spec.hard) ? Object.keys(spec.hard).sort() : [];
  return [...hardErrors(spec.hard), ...scopeErrors(spec, hard), ...scopeSelectorErrors(spec, hard)];
}

export const resourcequotas: KindStrategy = {
  group: "",
  resource: "resourcequotas",
  // A /status write checks the reported limits and usage (ValidateResourceQuotaStatusUpdate).
  validate: (obj, _old, subresource) => {
    if (subresource !== "status") return resourceQuotaErrors(objectAt(obj.spec));
    const status = objectAt(obj.status);
    return [...hardErrors(status.hard, "status.hard"), ...hardErrors(status.used, "status.used")];
  },
};
