/**
 * The deprecated seccomp annotations (`seccomp.security.alpha.kubernetes.io/pod` and
 * `container.seccomp.security.alpha.kubernetes.io/<container>`): a known profile form, a local
 * descending path for `localhost/…`, and, on create, agreement with the `seccompProfile` fields
 * they stand beside (ValidateSeccompPodAnnotations and validateSeccompAnnotationsAndFields upstream).
 */
import { type AnnotationForms, LOCALHOST, profileMismatchErrors } from "./annotation-profiles.js";
import { type FieldError, invalid, isSet, type Json, obj, str, stringMap } from "./field-errors.js";
import { podContainers } from "./pod-security-rules.js";

const POD_KEY = "seccomp.security.alpha.kubernetes.io/pod";
const CONTAINER_PREFIX = "container.seccomp.security.alpha.kubernetes.io/";
const RUNTIME_DEFAULT = ["runtime/default", "docker/default"];

/** ValidateSeccompProfile on an annotation's value. */
function profileErrors(value: string, at: string): FieldError[] {
  if (RUNTIME_DEFAULT.includes(value) || value === "unconfined") return [];
  if (!value.startsWith(LOCALHOST)) return [invalid(at, value, "must be a valid seccomp profile")];
  const path = value.slice(LOCALHOST.length);
  const out: FieldError[] = [];
  if (path.startsWith("/")) out.push(invalid(at, path, "must be a relative path"));
  if (path.split("/").includes("..")) out.push(invalid(at, path, "must not contain '..'"));
  return out;
}

/** ValidateSeccompPodAnnotations; upstream joins the key to the path with a dot. */
export function seccompAnnotationErrors(meta: unknown, at: string): FieldError[] {
  return stringMap(obj(meta).annotations)
    .filter(([k]) => k === POD_KEY || k.startsWith(CONTAINER_PREFIX))
    .flatMap(([k, v]) => profileErrors(v, `${at}.${k}`));
}

const FORMS: AnnotationForms = { kind: "seccomp", unconfined: "unconfined", runtimeDefault: RUNTIME_DEFAULT };

/** validateSeccompAnnotationsAndFields, for the pod spec at `at`. */
export function seccompMatchErrors(meta: unknown, spec: Json, at: string): FieldError[] {
  const annotations = new Map(stringMap(obj(meta).annotations));
  const out: FieldError[] = [];
  const podProfile = obj(spec.securityContext).seccompProfile;
  const podAnnotation = annotations.get(POD_KEY);
  if (isSet(podProfile) && podAnnotation !== undefined)
    out.push(
      ...profileMismatchErrors(FORMS, podAnnotation, obj(podProfile), `${at}.securityContext.seccompProfile`),
    );
  for (const [c, path] of podContainers(spec, at)) {
    const profile = obj(c.securityContext).seccompProfile;
    const annotation = annotations.get(`${CONTAINER_PREFIX}${str(c.name)}`);
    if (isSet(profile) && annotation !== undefined)
      out.push(
        ...profileMismatchErrors(FORMS, annotation, obj(profile), `${path}.securityContext.seccompProfile`),
      );
  }
  return out;
}
