/**
 * Jobs: one pod at a time, six retries; a Job without manualSelector selects its own pods by its
 * uid, set at create (the template keeps labels the request set, and the selector what it asked
 * for). Validated as ValidateJobCreate and ValidateJobUpdate (job-rules.ts).
 */

import {
  type FieldError,
  goJson,
  invalid,
  isObject,
  objectAt,
  renderedMap,
  required,
  stringAt,
  unchanged,
} from "../../validation/field-errors.js";
import {
  labelSelectorErrors,
  renderSelector,
  selectorConverts,
  selectorMatches,
  selectorUnchanged,
} from "../../validation/label-selector.js";
import { dns1123LabelProblems } from "../../validation/name-formats.js";
import { defaultTemplate } from "../core/pod-template-defaults.js";
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { jobSpecErrors } from "./job-rules.js";
import { jobStatusErrors } from "./job-status.js";

type Json = Record<string, unknown>;
type Labels = Record<string, string>;

const UID_LABELS = ["controller-uid", "batch.kubernetes.io/controller-uid"];
const NAME_LABELS = ["job-name", "batch.kubernetes.io/job-name"];

/**
 * Marks the labels defaulting copied from the template (a non-enumerable key: never written out).
 * Upstream's SetDefaults_Job makes both one Go map, so what the selector's generation adds to the
 * template later shows in the Job's labels too.
 */
const FROM_TEMPLATE = Symbol("labels copied from the pod template");

/**
 * SetDefaults_Job: a Job without labels takes its template's, on decoding (so its writer owns them,
 * as the managed fields are recorded after defaulting).
 */
function defaultLabelsFromTemplate(obj: Json): void {
  const metadata = obj.metadata as Json | undefined;
  const templateLabels = objectAt(objectAt(objectAt(obj.spec).template).metadata).labels;
  if (!metadata || !isObject(templateLabels) || Object.keys(templateLabels).length === 0) return;
  if (isObject(metadata.labels) && Object.keys(metadata.labels).length > 0) return;
  const labels = { ...templateLabels };
  Object.defineProperty(labels, FROM_TEMPLATE, { value: true });
  metadata.labels = labels;
}

/**
 * The template gets the uid and name labels (legacy and prefixed) it lacks and the selector matches
 * the uid. A Job without labels of its own shares the template's (upstream's defaulting makes both
 * the same map); one whose template had none gets the generated ones after validation.
 */
function generateJobSelector(obj: Json): void {
  const spec = objectAt(obj.spec);
  if (spec.manualSelector === true) return;
  const metadata = obj.metadata as Json;
  const uid = stringAt(metadata.uid);
  const name = stringAt(metadata.name);
  const template = objectAt(spec.template);
  const templateMeta = objectAt(template.metadata);
  const own = metadata.labels as (Labels & { [FROM_TEMPLATE]?: true }) | undefined;
  const shared =
    own?.[FROM_TEMPLATE] === true ||
    ((own === undefined || Object.keys(own).length === 0) && templateMeta.labels !== undefined);
  const labels: Labels = { ...(templateMeta.labels as Labels | undefined) };
  for (const k of NAME_LABELS) labels[k] ??= name;
  for (const k of UID_LABELS) labels[k] ??= uid;
  template.metadata = { ...templateMeta, labels };
  spec.template = template;
  const selector = isObject(spec.selector) ? spec.selector : {};
  const matchLabels = { ...(selector.matchLabels as Labels | undefined) };
  matchLabels["batch.kubernetes.io/controller-uid"] ??= uid;
  spec.selector = { ...selector, matchLabels };
  obj.spec = spec;
  if (shared) metadata.labels = { ...labels };
}

/** validateGeneratedSelector: the generated labels are there and the selector is the generated one. */
function generatedSelectorErrors(obj: Json): FieldError[] {
  const spec = objectAt(obj.spec);
  if (spec.manualSelector === true || !isObject(spec.selector)) return [];
  const meta = objectAt(obj.metadata);
  const expected: Labels = {
    "controller-uid": stringAt(meta.uid),
    "job-name": stringAt(meta.name),
    "batch.kubernetes.io/controller-uid": stringAt(meta.uid),
    "batch.kubernetes.io/job-name": stringAt(meta.name),
  };
  const labels = objectAt(objectAt(objectAt(spec.template).metadata).labels) as Labels;
  const out: FieldError[] = [];
  for (const key of [
    "controller-uid",
    "job-name",
    "batch.kubernetes.io/controller-uid",
    "batch.kubernetes.io/job-name",
  ]) {
    const field = `spec.template.metadata.labels[${key}]`;
    const want = expected[key] as string;
    if (!(key in labels)) out.push(required(field, `must be '${want}'`));
    else if (labels[key] !== want) out.push(invalid(field, goJson(labels), `must be '${want}'`));
  }
  if (selectorConverts(spec.selector) && !selectorMatches(spec.selector, expected))
    out.push(invalid("spec.selector", renderSelector(spec.selector), "`selector` not auto-generated"));
  return out;
}

/** ValidateJobSpec: the job spec, then the selector and the template's labels against it. */
function jobErrors(spec: Json): FieldError[] {
  const out = jobSpecErrors(spec, "spec");
  if (!isObject(spec.selector)) out.push(required("spec.selector"));
  else out.push(...labelSelectorErrors(spec.selector, "spec.selector"));
  const labels = objectAt(objectAt(spec.template).metadata).labels;
  if (selectorConverts(spec.selector) && !selectorMatches(spec.selector, labels))
    out.push(
      invalid(
        "spec.template.metadata.labels",
        renderedMap(labels),
        "`selector` does not match template `labels`",
      ),
    );
  return out;
}

/** An Indexed Job's last pod hostname, `<name>-<completions-1>`, must be a DNS label. */
function nameAllowsCompletions(obj: Json): FieldError[] {
  const spec = objectAt(obj.spec);
  const name = stringAt(objectAt(obj.metadata).name);
  if (spec.completionMode !== "Indexed" || typeof spec.completions !== "number" || spec.completions <= 0)
    return [];
  const host = `${name}-${spec.completions - 1}`;
  return dns1123LabelProblems(host).length > 0
    ? [invalid("metadata.name", name, `will not able to create pod with invalid DNS label: ${host}`)]
    : [];
}

function jobUpdateErrors(spec: Json, before: Json): FieldError[] {
  const out: FieldError[] = [];
  if (spec.completionMode !== "Indexed")
    out.push(...unchanged("spec.completions", spec.completions, before.completions));
  out.push(...selectorUnchanged(spec, before));
  if (before.suspend !== true) out.push(...unchanged("spec.template", spec.template, before.template));
  for (const k of [
    "completionMode",
    "podFailurePolicy",
    "backoffLimitPerIndex",
    "managedBy",
    "successPolicy",
  ])
    out.push(...unchanged(`spec.${k}`, spec[k], before[k]));
  return out;
}

export const jobs: KindStrategy = {
  group: "batch",
  resource: "jobs",
  tracksGeneration: true,
  fieldLabels: ["status.successful"],
  defaults(obj) {
    const spec = child(obj, "spec");
    // Completions default only with parallelism: a Job with parallelism alone is a work queue.
    if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
    set(spec, "parallelism", 1);
    set(spec, "backoffLimit", spec.backoffLimitPerIndex == null ? 6 : 2147483647);
    set(spec, "completionMode", "NonIndexed");
    set(spec, "suspend", false);
    set(spec, "podReplacementPolicy", isObject(spec.podFailurePolicy) ? "Failed" : "TerminatingOrFailed");
    set(spec, "manualSelector", false);
    defaultTemplate(spec);
    defaultLabelsFromTemplate(obj);
  },
  prepareCreate: generateJobSelector,
  validate(obj, old, subresource) {
    if (subresource === "status") return jobStatusErrors(obj, old);
    const spec = objectAt(obj.spec);
    if (old) return [...jobErrors(spec), ...jobUpdateErrors(spec, objectAt(old.spec))];
    return [...generatedSelectorErrors(obj), ...jobErrors(spec), ...nameAllowsCompletions(obj)];
  },
  canonicalize(obj) {
    const metadata = obj.metadata as Json;
    const own = metadata.labels as Labels | undefined;
    const template = (obj.spec as { template?: { metadata?: { labels?: Labels } } } | undefined)?.template;
    if ((own === undefined || Object.keys(own).length === 0) && template?.metadata?.labels)
      metadata.labels = { ...template.metadata.labels };
  },
};
