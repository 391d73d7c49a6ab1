/**
 * The one gate every object from the server passes before it reaches the store: it must have a
 * name, be of the expected kind, and go through the user's transform (exactly once).
 */
import type { KubernetesObject } from "@kubesdk/models";
import { describeObject, TransformError, UnexpectedObjectError } from "./errors.js";
import type { ErrorContext } from "./events.js";
import { hasName } from "./object-meta.js";

/** Why an object was turned away, and the context to report it in. */
export class Rejected {
  readonly error: Error;
  readonly context: ErrorContext;

  constructor(error: Error, during: ErrorContext["during"]) {
    this.error = error;
    this.context = { during, willRetry: false };
  }
}

/** The object to store (the transform's result), or why it was turned away; nothing is allocated for an accepted one. */
export function intake<T extends KubernetesObject>(
  raw: unknown,
  expectedKind: string | undefined,
  transform: ((obj: T) => T) | undefined,
): T | Rejected {
  if (!hasName(raw))
    return new Rejected(
      new UnexpectedObjectError("OBJECT_INVALID", "received an object without metadata.name", raw),
      "object",
    );
  if (expectedKind !== undefined && raw.kind !== undefined && raw.kind !== expectedKind)
    return new Rejected(
      new UnexpectedObjectError(
        "OBJECT_WRONG_KIND",
        `expected kind ${expectedKind} but received ${describeObject(raw)}; skipped`,
        raw,
      ),
      "object",
    );
  if (transform === undefined) return raw as T;
  try {
    return transform(raw as T);
  } catch (err) {
    return new Rejected(new TransformError(raw, err), "transform");
  }
}
