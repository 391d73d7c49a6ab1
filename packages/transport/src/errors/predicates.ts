import { ApiError } from "./api-error.js";

// Predicates accept `unknown` so they can be used directly in `catch` blocks.

const TOO_LARGE_RV_TEXT = "Too large resource version";

/** A test of a caught value: true when it is an ApiError of one kind. */
export type ApiErrorTest = (err: unknown) => err is ApiError;

/** A predicate true for an ApiError with one of `reasons` or, when given, the HTTP `statusCode`. */
function byReason(reasons: readonly string[], statusCode?: number): ApiErrorTest {
  return (err: unknown): err is ApiError =>
    err instanceof ApiError && (reasons.includes(err.reason) || err.statusCode === statusCode);
}

function hasCause(err: ApiError, reason: string): boolean {
  return err.causes.some((c) => c.reason === reason);
}

/** 404, or reason NotFound. */
export const isNotFound: ApiErrorTest = byReason(["NotFound"], 404);

/** reason Conflict (e.g. a stale resourceVersion on update, an apply conflict, a failed precondition). */
export const isConflict: ApiErrorTest = byReason(["Conflict"]);

/** reason AlreadyExists (create of a name that is taken). */
export const isAlreadyExists: ApiErrorTest = byReason(["AlreadyExists"]);

/** reason Invalid or HTTP 422 (validation failed; see `causes` for the fields). */
export const isInvalid: ApiErrorTest = byReason(["Invalid"], 422);

/**
 * The requested resourceVersion or continue token is no longer available: HTTP 410 or reason
 * Expired or Gone (client-go's IsResourceExpired and IsGone in one test).
 */
export const isExpired: ApiErrorTest = byReason(["Expired", "Gone"], 410);

/** reason Forbidden or HTTP 403. */
export const isForbidden: ApiErrorTest = byReason(["Forbidden"], 403);

/** reason Unauthorized or HTTP 401 (credentials missing, wrong or expired). */
export const isUnauthorized: ApiErrorTest = byReason(["Unauthorized"], 401);

/** reason TooManyRequests or HTTP 429; `retryAfterSeconds` says when to come back. */
export const isTooManyRequests: ApiErrorTest = byReason(["TooManyRequests"], 429);

/** reason ServerTimeout: the server could not finish in time and says the request may be retried. */
export const isServerTimeout: ApiErrorTest = byReason(["ServerTimeout"]);

/** reason Timeout or HTTP 504: the request did not complete in time (it may still take effect). */
export const isTimeout: ApiErrorTest = byReason(["Timeout"], 504);

/** HTTP 503 / reason ServiceUnavailable. */
export const isServiceUnavailable: ApiErrorTest = byReason(["ServiceUnavailable"], 503);

/**
 * The server has not yet seen the requested resourceVersion. Recognised in all forms servers use:
 * a cause with reason ResourceVersionTooLarge, a 504 whose cause message names it, or the message text.
 */
export function isTooLargeResourceVersion(err: unknown): err is ApiError {
  if (!(err instanceof ApiError)) return false;
  if (hasCause(err, "ResourceVersionTooLarge")) return true;
  if (isTimeout(err) && err.causes.some((c) => c.message?.includes(TOO_LARGE_RV_TEXT))) return true;
  return err.message.includes(TOO_LARGE_RV_TEXT);
}

/** A server-side apply conflict: 409 with FieldManagerConflict causes (the fields are in `causes[].field`). */
export function isApplyConflict(err: unknown): err is ApiError {
  return err instanceof ApiError && err.statusCode === 409 && hasCause(err, "FieldManagerConflict");
}
