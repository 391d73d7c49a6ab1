import type { Status, StatusDetails } from "./generated/types/meta.v1.js";

/** A Failure Status as the API server writes it, for a code, reason and message. */
export function failureStatus(
  code: number,
  reason: string,
  message: string,
  details?: StatusDetails,
): Status {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    code,
    ...(details ? { details } : {}),
  };
}
