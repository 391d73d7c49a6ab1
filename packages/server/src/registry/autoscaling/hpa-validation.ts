/**
 * An autoscaling/v2 HPA as kube-apiserver 1.37 validates it (upstream's
 * ValidateHorizontalPodAutoscaler{,Update} with the options its strategy picks):
 * replica bounds (maxReplicas' declared in 1.37), the scale target, the metrics (hpa-metric-validation.ts) and the behavior.
 * autoscaling/v1 requests are checked after conversion, so their errors name v2's fields.
 */
import {
  type FieldError,
  FieldErrors,
  invalid,
  isObject,
  isSet,
  type Json,
  notSupported,
  objectAt,
  required,
  sameValue,
  stringAt,
} from "../../validation/field-errors.js";
import { quantityValue } from "../../validation/quantity-value.js";
import { metricsErrors } from "./hpa-metric-validation.js";
import { apiVersionProblem, crossVersionRefErrors, type RefOptions } from "./hpa-reference.js";

const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const SELECT_POLICIES = ["Disabled", "Max", "Min"];
const POLICY_TYPES = ["Percent", "Pods"];

function policyErrors(policy: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  const type = stringAt(policy.type);
  if (!POLICY_TYPES.includes(type)) out.push(notSupported(`${at}.type`, type, POLICY_TYPES));
  const value = typeof policy.value === "number" ? policy.value : 0;
  if (value <= 0) out.push(invalid(`${at}.value`, value, "must be greater than zero"));
  const period = typeof policy.periodSeconds === "number" ? policy.periodSeconds : 0;
  if (period <= 0) out.push(invalid(`${at}.periodSeconds`, period, "must be greater than zero"));
  if (period > MAX_PERIOD_SECONDS)
    out.push(invalid(`${at}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  return out;
}

function toleranceErrors(tolerance: unknown, at: string): FieldError[] {
  if (!isSet(tolerance)) return [];
  const text = typeof tolerance === "number" ? String(tolerance) : stringAt(tolerance);
  const q = quantityValue(text);
  return q?.negative ? [invalid(at, text, "must be greater than or equal to 0")] : [];
}

function scalingRulesErrors(rules: unknown, at: string): FieldError[] {
  if (!isObject(rules)) return [];
  const out: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === "number" && window < 0)
    out.push(invalid(`${at}.stabilizationWindowSeconds`, window, "must be greater than or equal to zero"));
  if (typeof window === "number" && window > MAX_STABILIZATION_WINDOW_SECONDS)
    out.push(
      invalid(
        `${at}.stabilizationWindowSeconds`,
        window,
        `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`,
      ),
    );
  if (isSet(rules.selectPolicy) && !SELECT_POLICIES.includes(stringAt(rules.selectPolicy)))
    out.push(notSupported(`${at}.selectPolicy`, stringAt(rules.selectPolicy), SELECT_POLICIES));
  const policies = Array.isArray(rules.policies) ? rules.policies : [];
  if (policies.length === 0) out.push(required(`${at}.policies`, "must specify at least one Policy"));
  out.push(...policies.flatMap((p, i) => policyErrors(objectAt(p), `${at}.policies[${i}]`)));
  out.push(...toleranceErrors(rules.tolerance, `${at}.tolerance`));
  return out;
}

function behaviorErrors(behavior: unknown): FieldError[] {
  if (!isObject(behavior)) return [];
  return [
    ...scalingRulesErrors(behavior.scaleUp, "spec.behavior.scaleUp"),
    ...scalingRulesErrors(behavior.scaleDown, "spec.behavior.scaleDown"),
  ];
}

interface SpecOptions {
  readonly scaleTargetRef: RefOptions;
  readonly objectMetrics: RefOptions;
}

/** The options upstream's strategy picks for the scale target and Object metrics. */
function specOptions(spec: Json, oldSpec: Json | undefined): SpecOptions {
  const ref = objectAt(spec.scaleTargetRef);
  const oldRef = oldSpec && objectAt(oldSpec.scaleTargetRef);
  // An update that keeps the target's apiVersion and kind is not held to the newer apiVersion rule.
  const keepsTarget =
    oldRef !== undefined && sameValue(oldRef.apiVersion, ref.apiVersion) && sameValue(oldRef.kind, ref.kind);
  const oldObjectMetricsInvalid =
    oldSpec !== undefined && objectMetricApiVersionsInvalid(oldSpec.metrics, OBJECT_METRIC_REFS);
  return {
    scaleTargetRef: {
      allowInvalidApiVersion: keepsTarget,
      // The only scalable kind of the core group.
      allowEmptyGroup: !keepsTarget && stringAt(ref.kind) === "ReplicationController",
    },
    objectMetrics: { allowEmptyGroup: true, allowInvalidApiVersion: oldObjectMetricsInvalid },
  };
}

const OBJECT_METRIC_REFS: RefOptions = { allowEmptyGroup: true, allowInvalidApiVersion: false };

function objectMetricApiVersionsInvalid(metrics: unknown, opts: RefOptions): boolean {
  return (Array.isArray(metrics) ? metrics : []).some((m) => {
    const metric = objectAt(m);
    if (stringAt(metric.type) !== "Object" || !isObject(metric.object)) return false;
    return (
      apiVersionProblem(stringAt(objectAt(metric.object.describedObject).apiVersion), opts) !== undefined
    );
  });
}

function specErrors(spec: Json, opts: SpecOptions): FieldError[] {
  const errs = new FieldErrors();
  const min = spec.minReplicas;
  const max = typeof spec.maxReplicas === "number" ? spec.maxReplicas : 0;
  // HPAScaleToZero is on in 1.37: 0 is the lower bound.
  if (typeof min === "number" && min < 0)
    errs.add(invalid("spec.minReplicas", min, "must be greater than or equal to 0"));
  if (typeof min === "number" && max < min)
    errs.add(invalid("spec.maxReplicas", max, "must be greater than or equal to `minReplicas`"));
  errs.add(
    ...crossVersionRefErrors(objectAt(spec.scaleTargetRef), "spec.scaleTargetRef", opts.scaleTargetRef),
  );
  errs.add(...metricsErrors(spec.metrics, min, opts.objectMetrics));
  errs.add(...behaviorErrors(spec.behavior));
  // Declared in 1.37 (+k8s:required, +k8s:minimum=1): reported after the hand-written rules.
  if (max === 0) errs.covered(required("spec.maxReplicas"));
  else if (max < 1) errs.covered(invalid("spec.maxReplicas", max, "must be greater than or equal to 1"));
  return errs.list();
}

/** The spec's validation on create and update (/status writes are checked by the strategy). */
export function validateHpa(obj: Json, old: Json | undefined): FieldError[] {
  const spec = objectAt(obj.spec);
  return specErrors(spec, specOptions(spec, old && objectAt(old.spec)));
}
