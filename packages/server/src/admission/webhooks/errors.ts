/**
 * The Status a webhook's failure becomes, as kube-apiserver writes it: a rejection keeps the
 * webhook's own status (its code raised to 400 when below, its reason and details as given) with the message
 * `admission webhook "<name>" denied the request: <message>`; a failed call under
 * failurePolicy Fail is a 500 InternalError naming the webhook; a dry run sent to a webhook with
 * side effects is a 400.
 */
import { errors, failure, type Status, StatusError } from "../../api/status.js";

type Json = Record<string, unknown>;

/** A webhook's `allowed: false` answer as the request's error. */
export function rejection(webhook: string, result: Json | undefined): StatusError {
  const r = result ?? {};
  const code = typeof r.code === "number" && r.code >= 400 ? r.code : 400;
  const deniedBy = `admission webhook ${JSON.stringify(webhook)} denied the request`;
  const message =
    typeof r.message === "string" && r.message !== ""
      ? `${deniedBy}: ${r.message}`
      : typeof r.reason === "string" && r.reason !== ""
        ? `${deniedBy}: ${r.reason}`
        : `${deniedBy} without explanation`;
  const status: Status = {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    ...(typeof r.reason === "string" && r.reason !== "" ? { reason: r.reason } : {}),
    ...(typeof r.details === "object" && r.details !== null
      ? { details: r.details as Status["details"] }
      : {}),
    code,
  };
  return new StatusError(status);
}

/** A call that failed (unreachable, timed out, a bad answer) under failurePolicy Fail. */
export function callFailure(webhook: string, why: string): StatusError {
  return errors.internal(`failed calling webhook ${JSON.stringify(webhook)}: ${why}`);
}

export function dryRunUnsupported(webhook: string): StatusError {
  return failure(400, "BadRequest", `admission webhook ${JSON.stringify(webhook)} does not support dry run`);
}
