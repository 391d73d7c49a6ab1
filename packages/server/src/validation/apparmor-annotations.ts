/**
 * The deprecated per-container AppArmor annotations (`container.apparmor.security.beta.kubernetes.io/
 * <container>`) beside the `appArmorProfile` fields: each names a container of the pod and a known
 * profile form, agrees with the field on create, and stays as it is on update. A new Pod's
 * container without a profile field gets one from its annotation (the pod strategy's version skew
 * step), unless the pod-level profile already says the same.
 */
import { type AnnotationForms, LOCALHOST, profileMismatchErrors } from "./annotation-profiles.js";
import {
  type FieldError,
  forbidden,
  invalid,
  isSet,
  type Json,
  obj,
  sameValue,
  str,
  stringMap,
} from "./field-errors.js";
import { podContainers } from "./pod-security-rules.js";

const PREFIX = "container.apparmor.security.beta.kubernetes.io/";
const RUNTIME_DEFAULT = "runtime/default";
const UNCONFINED = "unconfined";

const annotationsOf = (meta: unknown): [string, string][] =>
  stringMap(obj(meta).annotations).filter(([k]) => k.startsWith(PREFIX));

/** ValidateAppArmorPodAnnotations, for the annotations at `at`. */
export function appArmorAnnotationErrors(meta: unknown, spec: Json, at: string): FieldError[] {
  const names = new Set(podContainers(spec, "").map(([c]) => str(c.name)));
  const out: FieldError[] = [];
  for (const [key, value] of annotationsOf(meta)) {
    const container = key.slice(PREFIX.length);
    if (!names.has(container)) out.push(invalid(`${at}[${key}]`, container, "container not found"));
    const known =
      value === "" || value === RUNTIME_DEFAULT || value === UNCONFINED || value.startsWith(LOCALHOST);
    if (!known)
      out.push(invalid(`${at}[${key}]`, value, `invalid AppArmor profile name: ${JSON.stringify(value)}`));
  }
  return out;
}

const FORMS: AnnotationForms = {
  kind: "apparmor",
  unconfined: UNCONFINED,
  runtimeDefault: [RUNTIME_DEFAULT],
};

const isWindows = (spec: Json): boolean => str(obj(spec.os).name) === "windows";

/** validateAppArmorAnnotationsAndFieldsMatchOnCreate, for the pod spec at `at`. */
export function appArmorMatchErrors(meta: unknown, spec: Json, at: string): FieldError[] {
  if (isWindows(spec)) return [];
  const annotations = new Map(annotationsOf(meta));
  const podProfile = obj(spec.securityContext).appArmorProfile;
  return podContainers(spec, at).flatMap(([c, path]) => {
    const own = obj(c.securityContext).appArmorProfile;
    const profile = isSet(own) ? own : podProfile;
    const annotation = annotations.get(`${PREFIX}${str(c.name)}`);
    if (!isSet(profile) || annotation === undefined) return [];
    return profileMismatchErrors(FORMS, annotation, obj(profile), `${path}.securityContext.appArmorProfile`);
  });
}

/** ValidatePodSpecificAnnotationUpdates' AppArmor part: annotations are neither added, changed nor removed. */
export function appArmorAnnotationUpdateErrors(meta: unknown, oldMeta: unknown, at: string): FieldError[] {
  const now = new Map(annotationsOf(meta));
  const before = new Map(annotationsOf(oldMeta));
  const out: FieldError[] = [];
  for (const [k, v] of before)
    if (now.get(k) !== v) out.push(forbidden(`${at}[${k}]`, "may not remove or update AppArmor annotations"));
  for (const k of now.keys())
    if (!before.has(k)) out.push(forbidden(`${at}[${k}]`, "may not add AppArmor annotations"));
  return out;
}

/** ApparmorFieldForAnnotation: the profile an annotation stands for, if it is a valid one. */
function profileFor(annotation: string): Json | undefined {
  if (annotation === UNCONFINED) return { type: "Unconfined" };
  if (annotation === RUNTIME_DEFAULT) return { type: "RuntimeDefault" };
  const name = annotation.startsWith(LOCALHOST) ? annotation.slice(LOCALHOST.length) : "";
  // The field's own rules (no padding, at most 4095 bytes) decide whether it is copied.
  if (name === "" || name.trim() !== name || Buffer.byteLength(name) > 4095) return undefined;
  return { type: "Localhost", localhostProfile: name };
}

/** applyAppArmorVersionSkew: copies annotations into unset container profiles of a new Pod. */
export function copyAppArmorAnnotations(pod: Json): void {
  const spec = obj(pod.spec);
  if (isWindows(spec)) return;
  const annotations = new Map(annotationsOf(pod.metadata));
  const podProfile = obj(spec.securityContext).appArmorProfile;
  for (const [c] of podContainers(spec, "")) {
    const annotation = annotations.get(`${PREFIX}${str(c.name)}`);
    if (annotation === undefined || isSet(obj(c.securityContext).appArmorProfile)) continue;
    const profile = profileFor(annotation);
    if (profile === undefined || sameValue(profile, podProfile)) continue;
    if (!isSet(c.securityContext)) c.securityContext = {};
    (c.securityContext as Json).appArmorProfile = profile;
  }
}
