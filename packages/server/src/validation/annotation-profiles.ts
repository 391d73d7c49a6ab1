/**
 * What the deprecated seccomp and AppArmor annotations and their profile fields share: the rule
 * that an annotation and the field beside it name the same profile (type, and the file of a
 * Localhost profile), with the messages upstream words per kind.
 */
import { type FieldError, forbidden, isSet, type Json, str } from "./field-errors.js";

export const LOCALHOST = "localhost/";

/** The annotation values that mean each profile type (Localhost: any `localhost/…`). */
export interface AnnotationForms {
  /** "seccomp" or "apparmor", as upstream's messages name it. */
  readonly kind: string;
  readonly unconfined: string;
  readonly runtimeDefault: readonly string[];
}

/** The annotation's disagreement with the profile field at `at`. */
export function profileMismatchErrors(
  forms: AnnotationForms,
  annotation: string,
  profile: Json,
  at: string,
): FieldError[] {
  const typeMismatch = [forbidden(`${at}.type`, `${forms.kind} type in annotation and field must match`)];
  switch (profile.type) {
    case "Unconfined":
      return annotation === forms.unconfined ? [] : typeMismatch;
    case "RuntimeDefault":
      return forms.runtimeDefault.includes(annotation) ? [] : typeMismatch;
    case "Localhost":
      if (!annotation.startsWith(LOCALHOST)) return typeMismatch;
      return isSet(profile.localhostProfile) &&
        annotation.slice(LOCALHOST.length) === str(profile.localhostProfile)
        ? []
        : [forbidden(`${at}.localhostProfile`, `${forms.kind} profile in annotation and field must match`)];
    default:
      return [];
  }
}
