/**
 * Pod templates of workloads: ValidatePodTemplateSpec (the template's labels and annotations, its
 * pod-specific annotations, its pod spec, no ephemeral containers) and the rule every
 * controller template shares: the selector matches the template's labels.
 */

import { appArmorAnnotationErrors, appArmorMatchErrors } from "./apparmor-annotations.js";
import {
  type FieldError,
  forbidden,
  invalid,
  listAt,
  notSupported,
  objectAt,
  renderedMap,
  stringAt,
} from "./field-errors.js";
import { labelMapErrors } from "./label-selector.js";
import { annotationMapErrors } from "./object-meta.js";
import { podAnnotationErrors } from "./pod-annotations.js";
import { podSpecErrors } from "./pod-spec.js";
import { seccompAnnotationErrors, seccompMatchErrors } from "./seccomp-annotations.js";

type Json = Record<string, unknown>;

/** ValidatePodTemplateSpec, fields reported under `at`. */
export function podTemplateSpecErrors(template: Json, at: string): FieldError[] {
  const meta = objectAt(template.metadata);
  const spec = objectAt(template.spec);
  const out = labelMapErrors(meta.labels, `${at}.labels`);
  out.push(...annotationMapErrors(meta.annotations, `${at}.annotations`));
  out.push(...podAnnotationErrors(meta, spec, `${at}.annotations`));
  out.push(...seccompAnnotationErrors(meta, `${at}.annotations`));
  out.push(...appArmorAnnotationErrors(meta, spec, `${at}.annotations`));
  out.push(...podSpecErrors(spec, `${at}.spec`));
  out.push(...seccompMatchErrors(meta, spec, `${at}.spec`));
  out.push(...appArmorMatchErrors(meta, spec, `${at}.spec`));
  if (listAt(spec.ephemeralContainers).length > 0)
    out.push(forbidden(`${at}.spec.ephemeralContainers`, "ephemeral containers not allowed in pod template"));
  return out;
}

/**
 * A controller's template (ReplicaSet, Deployment, DaemonSet, StatefulSet, ReplicationController):
 * selected by the selector (`matches` is undefined when the selector selects everything, so there
 * is nothing to match), a valid pod template, pods that always restart and have no deadline.
 */
export function controllerTemplateErrors(
  template: Json,
  matches: boolean | undefined,
  owner: string,
  at: string,
): FieldError[] {
  const out: FieldError[] = [];
  if (matches === false)
    out.push(
      invalid(
        `${at}.metadata.labels`,
        renderedMap(objectAt(template.metadata).labels),
        "`selector` does not match template `labels`",
      ),
    );
  out.push(...podTemplateSpecErrors(template, at));
  out.push(...alwaysRestartErrors(template, owner, at));
  return out;
}

/** Pods of a controller restart always and run without an active deadline. */
export function alwaysRestartErrors(template: Json, owner: string, at: string): FieldError[] {
  const spec = objectAt(template.spec);
  const out: FieldError[] = [];
  if (spec.restartPolicy !== "Always")
    out.push(notSupported(`${at}.spec.restartPolicy`, stringAt(spec.restartPolicy), ["Always"]));
  if (spec.activeDeadlineSeconds != null)
    out.push(
      forbidden(`${at}.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${owner} is not Supported`),
    );
  return out;
}
