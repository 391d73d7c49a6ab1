import { ApiError } from "./api-error.js";

// Predicates accept `unknown` so they can be used directly in `catch` blocks.

const TOO_LARGE_RV_TEXT = "Too large resource version";

function api(err: unknown): ApiError | undefined {
  return err instanceof ApiError ? err : undefined;
}

function hasCause(err: ApiError, reason: string): boolean {
  return err.causes.some((c) => c.reason === reason);
}

/** 404, or reason NotFound. */
export function isNotFound(err: unknown): err is ApiError {
  const e = api(err);
  return e !== undefined && (e.reason === "NotFound" || e.code === 404);
}

/** reason Conflict (e.g. a stale resourceVersion on update, an apply conflict, a failed precondition). */
export function isConflict(err: unknown): err is ApiError {
  return api(err)?.reason === "Conflict";
}

/** reason AlreadyExists (create of a name that is taken). */
export function isAlreadyExists(err: unknown): err is ApiError {
  return api(err)?.reason === "AlreadyExists";
}

/** reason Invalid or HTTP 422 (validation failed; see `causes` for the fields). */
export function isInvalid(err: unknown): err is ApiError {
  const e = api(err);
  return e !== undefined && (e.reason === "Invalid" || e.code === 422);
}

/**
 * The requested resourceVersion or continue token is no longer available: HTTP 410 or reason
 * Expired or Gone. {@link isGone} is the same test under its other common name.
 */
export function isExpired(err: unknown): err is ApiError {
  const e = api(err);
  return e !== undefined && (e.code === 410 || e.reason === "Expired" || e.reason === "Gone");
}

/** Same as {@link isExpired}. */
export const isGone: (err: unknown) => err is ApiError = isExpired;

/**
 * The server has not yet seen the requested resourceVersion. Recognised in all forms servers use:
 * a cause with reason ResourceVersionTooLarge, a 504 whose cause message names it, or the message text.
 */
export function isTooLargeResourceVersion(err: unknown): err is ApiError {
  const e = api(err);
  if (e === undefined) return false;
  if (hasCause(e, "ResourceVersionTooLarge")) return true;
  if (
    (e.code === 504 || e.reason === "Timeout") &&
    e.causes.some((c) => c.message?.includes(TOO_LARGE_RV_TEXT))
  )
    return true;
  return e.message.includes(TOO_LARGE_RV_TEXT);
}

/** A server-side apply conflict: 409 with FieldManagerConflict causes (the fields are in `causes[].field`). */
export function isApplyConflict(err: unknown): err is ApiError {
  const e = api(err);
  return e !== undefined && e.code === 409 && hasCause(e, "FieldManagerConflict");
}

/** reason Forbidden or HTTP 403. */
export function isForbidden(err: unknown): err is ApiError {
  const e = api(err);
  return e !== undefined && (e.reason === "Forbidden" || e.code === 403);
}

/** reason Unauthorized or HTTP 401 (credentials missing, wrong or expired). */
export function isUnauthorized(err: unknown): err is ApiError {
  const e = api(err);
  return e !== undefined && (e.reason === "Unauthorized" || e.code === 401);
}

/** reason TooManyRequests or HTTP 429; `retryAfterSeconds` says when to come back. */
export function isTooManyRequests(err: unknown): err is ApiError {
  const e = api(err);
  return e !== undefined && (e.reason === "TooManyRequests" || e.code === 429);
}

/** reason ServerTimeout: the server could not finish in time and says the request may be retried. */
export function isServerTimeout(err: unknown): err is ApiError {
  return api(err)?.reason === "ServerTimeout";
}

/** reason Timeout or HTTP 504: the request did not complete in time (it may still take effect). */
export function isTimeout(err: unknown): err is ApiError {
  const e = api(err);
  return e !== undefined && (e.reason === "Timeout" || e.code === 504);
}

/** HTTP 503 / reason ServiceUnavailable. */
export function isServiceUnavailable(err: unknown): err is ApiError {
  const e = api(err);
  return e !== undefined && (e.reason === "ServiceUnavailable" || e.code === 503);
}
