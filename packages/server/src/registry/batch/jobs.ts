/**
 * Jobs: one pod at a time, six retries; a Job without manualSelector selects its own pods by its
 * uid, set at create.
 */

import { defaultTemplate } from "../core/pod-template-defaults.js";
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

type Labels = Record<string, string>;

/**
 * The template gets the uid and name labels (legacy and prefixed) and the selector matches the uid.
 * A Job without labels of its own shares the template's (upstream's defaulting makes both the same map);
 * one whose template had none gets the generated ones after validation (as kube-apiserver 1.37 answers).
 */
function generateJobSelector(obj: Record<string, unknown>): void {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  if (spec.manualSelector === true) return;
  const metadata = obj.metadata as Record<string, unknown>;
  const uid = String(metadata.uid);
  const name = String(metadata.name);
  const template = (spec.template ?? {}) as { metadata?: { labels?: Labels } };
  const own = metadata.labels as Labels | undefined;
  const shared =
    (own === undefined || Object.keys(own).length === 0) && template.metadata?.labels !== undefined;
  const labels: Labels = {
    ...template.metadata?.labels,
    "batch.kubernetes.io/controller-uid": uid,
    "batch.kubernetes.io/job-name": name,
    "controller-uid": uid,
    "job-name": name,
  };
  template.metadata = { ...template.metadata, labels };
  spec.template = template;
  spec.selector = { matchLabels: { "batch.kubernetes.io/controller-uid": uid } };
  if (shared) metadata.labels = { ...labels };
}

export const jobs: KindStrategy = {
  group: "batch",
  resource: "jobs",
  tracksGeneration: true,
  fieldLabels: ["status.successful"],
  defaults(obj) {
    const spec = child(obj, "spec");
    set(spec, "parallelism", 1);
    set(spec, "backoffLimit", 6);
    set(spec, "completionMode", "NonIndexed");
    set(spec, "suspend", false);
    set(spec, "podReplacementPolicy", "TerminatingOrFailed");
    if (spec.completions === undefined) spec.completions = 1;
    defaultTemplate(spec);
  },
  prepareCreate: generateJobSelector,
  canonicalize(obj) {
    const metadata = obj.metadata as Record<string, unknown>;
    const own = metadata.labels as Labels | undefined;
    const template = (obj.spec as { template?: { metadata?: { labels?: Labels } } } | undefined)?.template;
    if ((own === undefined || Object.keys(own).length === 0) && template?.metadata?.labels)
      metadata.labels = { ...template.metadata.labels };
  },
};
