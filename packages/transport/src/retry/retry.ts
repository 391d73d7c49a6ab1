/**
 * A small retry loop. It replaces p-retry: p-retry computes its own delay per attempt and has no
 * way to wait for a delay the server gives (Retry-After) on that attempt, which forced sleeping
 * inside its `shouldRetry` hook with its own delay turned off. Here the policy names the delay for
 * each failure and the loop waits it with {@link sleep}, which an AbortSignal cuts short.
 */
import { RequestAbortedError } from "../errors/transport-errors.js";
import { sleep } from "./sleep.js";

/** When and how long to wait before trying again. */
export interface RetryPolicy {
  /** Tries in all, the first included (1 = no retries). */
  readonly attempts: number;
  /** Whether this failure may be retried. */
  shouldRetry(error: unknown): boolean;
  /** How long to wait after the `retryIndex`-th failure (0 for the first). */
  delayMs(error: unknown, retryIndex: number): number;
  /** Aborting stops waiting at once and rejects with a RequestAbortedError. */
  readonly signal?: AbortSignal | undefined;
}

/** Runs `attempt` until it succeeds, a failure is not retryable, or `attempts` are used up. */
export async function retry<T>(attempt: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  const { signal } = policy;
  for (let retryIndex = 0; ; retryIndex++) {
    if (signal?.aborted) throw new RequestAbortedError(undefined, { cause: signal.reason });
    try {
      return await attempt();
    } catch (error) {
      if (retryIndex + 1 >= policy.attempts || !policy.shouldRetry(error)) throw error;
      if (!(await sleep(policy.delayMs(error, retryIndex), signal))) {
        throw new RequestAbortedError(undefined, { cause: signal?.reason });
      }
    }
  }
}
