/**
 * The metrics of an autoscaling/v2 HPA as kube-apiserver 1.37 checks them (upstream's
 * validateMetrics): one source per metric, the one its `type` names, each with a target whose
 * type is known and whose values are positive; minReplicas 0 needs an Object or External metric.
 */
import { pathSegmentProblems } from "../../api/names.js";
import {
  type FieldError,
  forbidden,
  invalid,
  isObject,
  isSet,
  type Json,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "../../validation/field-errors.js";
import { dns1123LabelProblems } from "../../validation/name-formats.js";
import { quantityValue } from "../../validation/quantity-value.js";
import { containerResourceNameErrors } from "../../validation/resources.js";
import { crossVersionRefErrors, type RefOptions } from "./hpa-reference.js";

const SOURCE_TYPES = ["ContainerResource", "External", "Object", "Pods", "Resource"];
/** Each metric type and the field that holds its source, in the order upstream looks at them. */
const SOURCES: readonly (readonly [string, string])[] = [
  ["Object", "object"],
  ["External", "external"],
  ["Pods", "pods"],
  ["Resource", "resource"],
  ["ContainerResource", "containerResource"],
];

const quantityText = (v: unknown): string => (typeof v === "number" ? String(v) : stringAt(v));

function positiveQuantity(v: unknown, at: string): FieldError[] {
  if (!isSet(v)) return [];
  const q = quantityValue(quantityText(v));
  return q && q.num > 0n ? [] : [invalid(at, quantityText(v), "must be positive")];
}

function targetErrors(target: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  const type = stringAt(target.type);
  if (type === "") out.push(required(`${at}.type`, "must specify a metric target type"));
  if (!["Utilization", "Value", "AverageValue"].includes(type))
    out.push(invalid(`${at}.type`, type, "must be either Utilization, Value, or AverageValue"));
  out.push(...positiveQuantity(target.value, `${at}.value`));
  out.push(...positiveQuantity(target.averageValue, `${at}.averageValue`));
  const util = target.averageUtilization;
  if (typeof util === "number" && util < 1)
    out.push(invalid(`${at}.averageUtilization`, util, "must be greater than 0"));
  return out;
}

function identifierErrors(metric: Json, at: string): FieldError[] {
  const name = stringAt(metric.name);
  if (name === "") return [required(`${at}.name`, "must specify a metric name")];
  return pathSegmentProblems(name).map((m) => invalid(`${at}.name`, name, m));
}

/** The target of a source, checked, with the rule on which of its values must be set. */
function sourceTarget(src: Json, at: string): { target: Json; errs: FieldError[] } {
  const target = objectAt(src.target);
  return { target, errs: targetErrors(target, `${at}.target`) };
}

function objectSourceErrors(src: Json, at: string, opts: RefOptions): FieldError[] {
  const out = crossVersionRefErrors(objectAt(src.describedObject), `${at}.describedObject`, opts);
  out.push(...identifierErrors(objectAt(src.metric), `${at}.metric`));
  const { target, errs } = sourceTarget(src, at);
  out.push(...errs);
  if (!isSet(target.value) && !isSet(target.averageValue))
    out.push(required(`${at}.target.averageValue`, "must set either a target value or averageValue"));
  return out;
}

function externalSourceErrors(src: Json, at: string): FieldError[] {
  const out = identifierErrors(objectAt(src.metric), `${at}.metric`);
  const { target, errs } = sourceTarget(src, at);
  out.push(...errs);
  if (!isSet(target.value) && !isSet(target.averageValue))
    out.push(
      required(`${at}.target.averageValue`, "must set either a target value for metric or a per-pod target"),
    );
  if (isSet(target.value) && isSet(target.averageValue))
    out.push(
      forbidden(`${at}.target.value`, "may not set both a target value for metric and a per-pod target"),
    );
  return out;
}

function podsSourceErrors(src: Json, at: string): FieldError[] {
  const out = identifierErrors(objectAt(src.metric), `${at}.metric`);
  const { target, errs } = sourceTarget(src, at);
  out.push(...errs);
  if (!isSet(target.averageValue))
    out.push(required(`${at}.target.averageValue`, "must specify a positive target averageValue"));
  return out;
}

/** Resource and ContainerResource targets: a utilization or an average value, not both. */
function resourceTargetErrors(src: Json, at: string): FieldError[] {
  const { target, errs } = sourceTarget(src, at);
  if (!isSet(target.averageUtilization) && !isSet(target.averageValue))
    errs.push(
      required(
        `${at}.target.averageUtilization`,
        "must set either a target raw value or a target utilization",
      ),
    );
  if (isSet(target.averageUtilization) && isSet(target.averageValue))
    errs.push(
      forbidden(`${at}.target.averageValue`, "may not set both a target raw value and a target utilization"),
    );
  return errs;
}

function resourceSourceErrors(src: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  if (stringAt(src.name) === "") out.push(required(`${at}.name`, "must specify a resource name"));
  return [...out, ...resourceTargetErrors(src, at)];
}

function containerResourceSourceErrors(src: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  const name = stringAt(src.name);
  if (name === "") out.push(required(`${at}.name`, "must specify a resource name"));
  else out.push(...containerResourceNameErrors(name, `${at}.name`));
  const container = stringAt(src.container);
  if (container === "") out.push(required(`${at}.container`, "must specify a container"));
  else out.push(...dns1123LabelProblems(container).map((m) => invalid(`${at}.container`, container, m)));
  return [...out, ...resourceTargetErrors(src, at)];
}

function sourceErrors(field: string, src: Json, at: string, opts: RefOptions): FieldError[] {
  if (field === "object") return objectSourceErrors(src, at, opts);
  if (field === "external") return externalSourceErrors(src, at);
  if (field === "pods") return podsSourceErrors(src, at);
  if (field === "resource") return resourceSourceErrors(src, at);
  return containerResourceSourceErrors(src, at);
}

function metricErrors(metric: Json, at: string, opts: RefOptions): FieldError[] {
  const out: FieldError[] = [];
  const type = stringAt(metric.type);
  if (type === "") out.push(required(`${at}.type`, "must specify a metric source type"));
  // Only the first source present is checked; the others are refused below.
  const present = SOURCES.filter(([, f]) => isObject(metric[f])).map(([, f]) => f);
  const first = present[0];
  if (first) out.push(...sourceErrors(first, objectAt(metric[first]), `${at}.${first}`, opts));
  const expected = SOURCES.find(([t]) => t === type)?.[1];
  // Upstream checks the type twice; its error list keeps one of the two equal errors.
  if (expected === undefined) out.push(notSupported(`${at}.type`, type, SOURCE_TYPES));
  else if (!isObject(metric[expected]))
    out.push(required(`${at}.${expected}`, "must populate information for the given metric source"));
  if (present.length > 1)
    for (const f of present.filter((p) => p !== expected))
      out.push(forbidden(`${at}.${f}`, "must populate the given metric source only"));
  return out;
}

/** validateMetrics: each metric, then scaling to zero's need for an Object or External metric. */
export function metricsErrors(metrics: unknown, minReplicas: unknown, opts: RefOptions): FieldError[] {
  const list = Array.isArray(metrics) ? metrics : [];
  const out = list.flatMap((m, i) => metricErrors(objectAt(m), `spec.metrics[${i}]`, opts));
  const external = list.some((m) => ["Object", "External"].includes(stringAt(objectAt(m).type)));
  if (minReplicas === 0 && !external)
    out.push(
      forbidden(
        "spec.metrics",
        "must specify at least one Object or External metric to support scaling to zero replicas",
      ),
    );
  return out;
}
