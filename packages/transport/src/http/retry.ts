import pRetry from "p-retry";
import { ApiError } from "../errors/api-error.js";
import { KubesdkError } from "../errors/base.js";
import { isTooLargeResourceVersion } from "../errors/predicates.js";
import { ConnectionError, RequestAbortedError } from "../errors/transport-errors.js";
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
  if (err instanceof ApiError) return err.code === 429 || err.code === 503 || isTooLargeResourceVersion(err);
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
  const base = Math.min(options.maxDelayMs, options.minDelayMs * 2 ** retryIndex);
  return Math.min(options.maxDelayMs, base * (1 + random()));
}

/** Runs `attempt` with retries per {@link isRetryable}; an abort ends waiting at once. */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  context: { method: HttpMethod; options: RetryOptions | undefined; signal?: AbortSignal | undefined },
): Promise<T> {
  const { options, signal } = context;
  if (options === undefined) return attempt();
  try {
    return await pRetry(attempt, {
      retries: options.attempts - 1,
      // p-retry's own delay is disabled: ours honours Retry-After, which p-retry cannot know about.
      minTimeout: 0,
      ...(signal !== undefined ? { signal } : {}),
      shouldRetry: async ({ error, retriesConsumed }) => {
        if (!isRetryable(error, context.method)) return false;
        await sleep(retryDelayMs(error, retriesConsumed, options), signal);
        return true;
      },
    });
  } catch (err) {
    if (signal?.aborted && !(err instanceof KubesdkError) && !(err instanceof ApiError)) {
      throw new RequestAbortedError(undefined, { cause: signal.reason });
    }
    throw err;
  }
}

// Waits at least `ms` by the monotonic clock: a timer may fire a little early, so the rest is waited
// out, which makes "waited at least Retry-After" hold exactly.
async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  const end = performance.now() + ms;
  for (let left = ms; left > 0; left = end - performance.now()) {
    await timer(Math.ceil(left), signal);
  }
  if (signal?.aborted) throw new RequestAbortedError(undefined, { cause: signal.reason });
}

function timer(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new RequestAbortedError(undefined, { cause: signal.reason }));
      return;
    }
    const onAbort = () => {
      clearTimeout(handle);
      reject(new RequestAbortedError(undefined, { cause: signal?.reason }));
    };
    const handle = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
