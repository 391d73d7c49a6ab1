import { ApiError } from "../errors/api-error.js";
import { isTooLargeResourceVersion } from "../errors/predicates.js";
import { ConnectionError, RequestAbortedError, TransportError } from "../errors/transport-errors.js";
import { backoffDelayMs } from "../retry/backoff.js";
import { retry } from "../retry/retry.js";
import type { HttpMethod } from "./request.js";

/** Retry budget and backoff: `attempts` counts the first try; delays double from min to max with jitter. */
export interface RetryOptions {
  readonly attempts: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
}

/** Used when no retry options are given. */
export const DEFAULT_RETRY_OPTIONS: RetryOptions = { attempts: 5, minDelayMs: 250, maxDelayMs: 10_000 };

/** Fills partial options from the defaults; false (or attempts ≤ 1) disables retries. */
export function resolveRetryOptions(
  options: Partial<RetryOptions> | false | undefined,
  base: RetryOptions = DEFAULT_RETRY_OPTIONS,
): RetryOptions | undefined {
  if (options === false) return undefined;
  const merged = { ...base, ...options };
  return merged.attempts > 1 ? merged : undefined;
}

const READS = new Set<HttpMethod>(["GET", "HEAD"]);

/**
 * Reads (GET/HEAD, which includes lists and watch connects) retry on 429, 503, 504 too-large-RV and
 * refused/reset connections. Writes retry only when the request provably never left: refused,
 * DNS failure, unreachable host, connect timeout.
 */
export function isRetryable(err: unknown, method: HttpMethod): boolean {
  if (err instanceof ConnectionError && !err.requestSent) return true;
  if (!READS.has(method)) return false;
  if (err instanceof ConnectionError) return err.code === "CONNECTION_RESET" || err.code === "SOCKET_CLOSED";
  if (err instanceof ApiError)
    return err.statusCode === 429 || err.statusCode === 503 || isTooLargeResourceVersion(err);
  return false;
}

/** The server's Retry-After when it sent one, else capped exponential backoff with jitter in [d, 2d). */
export function retryDelayMs(
  err: unknown,
  retryIndex: number,
  options: RetryOptions,
  random = Math.random,
): number {
  if (err instanceof ApiError && err.retryAfterSeconds !== undefined) return err.retryAfterSeconds * 1000;
  const backoff = { initialMs: options.minDelayMs, maxMs: options.maxDelayMs, factor: 2, jitter: 1 };
  return Math.min(options.maxDelayMs, backoffDelayMs(retryIndex, backoff, random));
}

/** What {@link withRetries} needs: the request's method and its URL (named in a final failure). */
export interface RetryContext {
  readonly method: HttpMethod;
  readonly url: string;
  readonly options: RetryOptions | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs `attempt` with retries per {@link isRetryable}; an abort ends waiting at once. A transport
 * failure that ends the call names the request and how often it was tried.
 */
export async function withRetries<T>(attempt: () => Promise<T>, context: RetryContext): Promise<T> {
  const { options, signal } = context;
  const started = performance.now();
  let tries = 0;
  const counted = () => {
    tries++;
    return attempt();
  };
  try {
    if (options === undefined) return await counted();
    return await retry(counted, {
      attempts: options.attempts,
      shouldRetry: (error) => isRetryable(error, context.method),
      delayMs: (error, retryIndex) => retryDelayMs(error, retryIndex, options),
      signal,
    });
  } catch (error) {
    if (error instanceof TransportError && !(error instanceof RequestAbortedError)) {
      error.describeRequest(`${context.method} ${context.url}`, tries, performance.now() - started);
    }
    throw error;
  }
}
