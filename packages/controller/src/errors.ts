/** Errors of @kubesdk/controller. */
import { CodedError } from "@kubesdk/transport";

/** Codes of {@link ControllerError}. */
export type ControllerErrorCode =
  /** An option value the runtime cannot work with (negative delay, zero concurrency, …). */
  | "INVALID_OPTION"
  /** A call on a work queue, controller, elector or manager that was shut down. */
  | "SHUT_DOWN"
  /** Something was started twice. */
  | "ALREADY_STARTED"
  /** A controller was declared without the information it needs (no kind on a custom resource, …). */
  | "INVALID_DECLARATION"
  /** Leadership was lost while the caller needed it. */
  | "LEADERSHIP_LOST"
  /** Graceful shutdown passed its deadline with work still in flight. */
  | "SHUTDOWN_TIMEOUT";

/** Misuse of the controller runtime, or a state it cannot continue from. */
export class ControllerError extends CodedError<ControllerErrorCode> {}

/** Throws INVALID_OPTION unless `value` is a finite number ≥ `min`. */
export function checkNumber(name: string, value: number, min = 0): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min)
    throw new ControllerError("INVALID_OPTION", `${name} must be a finite number ≥ ${min}, got ${value}`);
  return value;
}
