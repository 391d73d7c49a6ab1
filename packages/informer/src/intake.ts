/**
 * The one gate every object from the server passes before it reaches the store: it must have a
 * name, be of the expected kind, and go through the user's transform (exactly once).
 */
import type { KubernetesObject } from "@kubesdk/models";
import { describeObject, TransformError, UnexpectedObjectError } from "./errors.js";
import type { ErrorContext } from "./events.js";
import { hasName } from "./object-meta.js";

export type IntakeResult<T> =
  | { readonly ok: true; readonly obj: T }
  | { readonly ok: false; readonly error: Error; readonly context: ErrorContext };

export function intake<T extends KubernetesObject>(
  raw: unknown,
  expectedKind: string | undefined,
  transform: ((obj: T) => T) | undefined,
): IntakeResult<T> {
  if (!hasName(raw))
    return skipped<T>(
      new UnexpectedObjectError("OBJECT_INVALID", "received an object without metadata.name", raw),
      "object",
    );
  if (expectedKind !== undefined && raw.kind !== undefined && raw.kind !== expectedKind)
    return skipped<T>(
      new UnexpectedObjectError(
        "OBJECT_WRONG_KIND",
        `expected kind ${expectedKind} but received ${describeObject(raw)}; skipped`,
        raw,
      ),
      "object",
    );
  // The accepted result needs no allocation when there is no transform: the object is the result's.
  if (transform === undefined) return { ok: true, obj: raw as T };
  try {
    return { ok: true, obj: transform(raw as T) };
  } catch (err) {
    return skipped<T>(new TransformError(raw, err), "transform");
  }
}

function skipped<T>(error: Error, during: ErrorContext["during"]): IntakeResult<T> {
  return { ok: false, error, context: { during, willRetry: false } };
}
