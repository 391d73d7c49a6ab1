/**
 * ValidatePodCreate and ValidatePodUpdate on top of the pod spec rules (validation/pod-spec.ts): no
 * ephemeral containers at create, seccomp and AppArmor annotations that agree with the profile
 * fields; an update may change only images, the active deadline (down), tolerations
 * (pod-toleration-update.ts), removed scheduling gates and, while gates remain, add to the node
 * selector and required node affinity (pod-gated-update.ts), and no AppArmor annotation. Upstream
 * appends a field-by-field diff to the forbidden-update message; here it names the changed fields
 * (docs/divergences.md SV1a).
 */

import {
  appArmorAnnotationErrors,
  appArmorAnnotationUpdateErrors,
  appArmorMatchErrors,
} from "../../validation/apparmor-annotations.js";
import {
  type FieldError,
  forbidden,
  invalid,
  listAt,
  nonNegative,
  objectAt,
  required,
  sameGoValue,
  stringAt,
} from "../../validation/field-errors.js";
import {
  badDeletionCost,
  mirrorAnnotationUpdateErrors,
  podAnnotationErrors,
} from "../../validation/pod-annotations.js";
import { podSpecErrors } from "../../validation/pod-spec.js";
import { seccompAnnotationErrors, seccompMatchErrors } from "../../validation/seccomp-annotations.js";
import { gatedPodUpdateErrors } from "./pod-gated-update.js";
import { tolerationUpdateErrors } from "./pod-toleration-update.js";

type Json = Record<string, unknown>;

const UPDATABLE = [
  "`spec.containers[*].image`",
  "`spec.initContainers[*].image`",
  "`spec.activeDeadlineSeconds`",
  "`spec.tolerations` (only additions to existing tolerations)",
  "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
].join(",");
const INT32_MAX = 2147483647;

function podMetadataAndSpecErrors(spec: Json, meta: unknown, allowBadCost = false): FieldError[] {
  return [
    ...podAnnotationErrors(meta, spec, "metadata.annotations", allowBadCost),
    ...seccompAnnotationErrors(meta, "metadata.annotations"),
    ...appArmorAnnotationErrors(meta, spec, "metadata.annotations"),
    ...podSpecErrors(spec, "spec"),
    ...nonNegative("spec.terminationGracePeriodSeconds", spec.terminationGracePeriodSeconds),
  ];
}

export function podCreateErrors(spec: Json, meta?: unknown): FieldError[] {
  const out = podMetadataAndSpecErrors(spec, meta);
  if (listAt(spec.ephemeralContainers).length > 0)
    out.push(forbidden("spec.ephemeralContainers", "cannot be set on create"));
  if (stringAt(spec.nodeName) !== "" && listAt(spec.schedulingGates).length > 0)
    out.push(forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared"));
  out.push(...seccompMatchErrors(meta, spec, "spec"));
  out.push(...appArmorMatchErrors(meta, spec, "spec"));
  return out;
}

/** ValidateContainerUpdates: the same number of containers, each with an image. */
function containerUpdateErrors(
  now: unknown,
  before: unknown,
  at: string,
): { errors: FieldError[]; stop: boolean } {
  const list = listAt(now);
  if (list.length !== listAt(before).length)
    return { errors: [forbidden(at, "pod updates may not add or remove containers")], stop: true };
  const errors: FieldError[] = [];
  list.forEach((c, i) => {
    const image = stringAt(objectAt(c).image);
    if (image === "") errors.push(required(`${at}[${i}].image`));
    if (image.trim() !== image)
      errors.push(invalid(`${at}[${i}].image`, image, "must not have leading or trailing whitespace"));
  });
  return { errors, stop: false };
}

function deadlineErrors(spec: Json, before: Json): FieldError[] {
  const now = spec.activeDeadlineSeconds;
  const was = before.activeDeadlineSeconds;
  if (typeof now === "number") {
    if (now < 0 || now > INT32_MAX)
      return [invalid("spec.activeDeadlineSeconds", now, `must be between 0 and ${INT32_MAX}, inclusive`)];
    if (typeof was === "number" && was < now)
      return [invalid("spec.activeDeadlineSeconds", now, "must be less than or equal to previous value")];
  } else if (typeof was === "number")
    return [
      invalid("spec.activeDeadlineSeconds", null, "must not update from a positive integer to nil value"),
    ];
  return [];
}

/** The spec with what an update may change put back as it was. */
function munged(spec: Json, before: Json): Json {
  const out: Json = { ...spec };
  for (const list of ["containers", "initContainers"]) {
    const old = listAt(before[list]);
    if (Array.isArray(spec[list]))
      out[list] = listAt(spec[list]).map((c, i) => ({ ...objectAt(c), image: objectAt(old[i]).image }));
  }
  for (const k of ["activeDeadlineSeconds", "schedulingGates", "tolerations"]) out[k] = before[k];
  const grace = before.terminationGracePeriodSeconds;
  if (typeof grace === "number" && grace < 0 && spec.terminationGracePeriodSeconds === 1)
    out.terminationGracePeriodSeconds = grace;
  return out;
}

export function podUpdateErrors(spec: Json, before: Json, meta?: unknown, oldMeta?: unknown): FieldError[] {
  const allowBadCost = badDeletionCost(oldMeta);
  const out = podMetadataAndSpecErrors(spec, meta, allowBadCost);
  // Upstream checks the pod's annotations a second time with the update's own rules.
  out.push(...appArmorAnnotationUpdateErrors(meta, oldMeta, "metadata.annotations"));
  out.push(...mirrorAnnotationUpdateErrors(meta, oldMeta, "metadata.annotations"));
  out.push(...podAnnotationErrors(meta, spec, "metadata.annotations", allowBadCost));
  out.push(...appArmorAnnotationErrors(meta, spec, "metadata.annotations"));
  for (const list of ["containers", "initContainers"]) {
    const r = containerUpdateErrors(spec[list], before[list], `spec.${list}`);
    out.push(...r.errors);
    if (r.stop) return out;
  }
  const deadline = deadlineErrors(spec, before);
  out.push(...deadline);
  if (deadline.length > 0) return out;
  out.push(...tolerationUpdateErrors(spec.tolerations, before.tolerations, "spec.tolerations"));
  const next = munged(spec, before);
  out.push(...gatedPodUpdateErrors(next, before));
  const changed = [...new Set([...Object.keys(next), ...Object.keys(before)])].filter(
    (k) => !sameGoValue(next[k], before[k]),
  );
  if (changed.length > 0)
    out.push(
      forbidden(
        "spec",
        `pod updates may not change fields other than ${UPDATABLE}\n(changed: ${changed.map((k) => `spec.${k}`).join(", ")})`,
      ),
    );
  return out;
}
