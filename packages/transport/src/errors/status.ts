// The `meta/v1 Status` body the API server sends for every failure (and some successes): the
// models' type, re-exported so every package means the same thing by `Status`.
import type { metaV1, Status } from "@kubesdk/models";

export type { Status };
/** One reason a request failed, as listed in `Status.details.causes`. */
export type StatusCause = metaV1.StatusCause;
/** `Status.details`: what the failure was about, plus machine-readable causes. */
export type StatusDetails = metaV1.StatusDetails;

/** Reasons the API server uses in `Status.reason` (any other string may appear too). */
export type StatusReason =
  | "BadRequest"
  | "Unauthorized"
  | "Forbidden"
  | "NotFound"
  | "AlreadyExists"
  | "Conflict"
  | "Gone"
  | "Expired"
  | "Invalid"
  | "ServerTimeout"
  | "Timeout"
  | "TooManyRequests"
  | "MethodNotAllowed"
  | "NotAcceptable"
  | "RequestEntityTooLarge"
  | "UnsupportedMediaType"
  | "InternalError"
  | "ServiceUnavailable"
  | "Unknown";

/** The reason a server would give for an HTTP code, used when the body is not a Status. */
export function reasonForHttpCode(code: number): StatusReason {
  switch (code) {
    case 400:
      return "BadRequest";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "NotFound";
    case 405:
      return "MethodNotAllowed";
    case 406:
      return "NotAcceptable";
    case 409:
      return "Conflict";
    case 410:
      return "Gone";
    case 413:
      return "RequestEntityTooLarge";
    case 415:
      return "UnsupportedMediaType";
    case 422:
      return "Invalid";
    case 429:
      return "TooManyRequests";
    case 503:
      return "ServiceUnavailable";
    case 504:
      return "Timeout";
    default:
      return code >= 500 ? "InternalError" : "Unknown";
  }
}

/** A Failure Status as the API server writes it, for a code, reason and message. */
export { failureStatus } from "@kubesdk/models";
