/** One reason a request failed, as listed in `Status.details.causes`. */
export interface StatusCause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

/** `Status.details`: what the failure was about, plus machine-readable causes. */
export interface StatusDetails {
  readonly name?: string;
  readonly group?: string;
  readonly kind?: string;
  readonly uid?: string;
  readonly causes?: readonly StatusCause[];
  readonly retryAfterSeconds?: number;
}

/** The `meta/v1 Status` body the API server sends for every failure (and some successes). */
export interface StatusBody {
  readonly kind: "Status";
  readonly apiVersion: string;
  readonly metadata?: {
    readonly resourceVersion?: string;
    readonly continue?: string;
    readonly [key: string]: unknown;
  };
  readonly status?: "Success" | "Failure" | (string & {});
  readonly message?: string;
  readonly reason?: string;
  readonly details?: StatusDetails;
  readonly code?: number;
}

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

/** True for a JSON value shaped like a Status (kind "Status"); fields are checked when read. */
export function isStatusBody(value: unknown): value is StatusBody {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "Status";
}

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
