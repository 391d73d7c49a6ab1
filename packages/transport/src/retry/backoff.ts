/**
 * Capped exponential backoff with jitter, shared by the transport's request retries and the
 * informer's list/watch recovery: the n-th delay (from 0) is min(initial·factorⁿ, max), jittered
 * into [d, d·(1+jitter)).
 */

export interface BackoffOptions {
  /** First delay. */
  readonly initialMs: number;
  /** Cap of the delay before jitter. */
  readonly maxMs: number;
  /** Growth per failure. */
  readonly factor: number;
  /** A delay d becomes a random value in [d, d·(1+jitter)) (1 gives [d, 2d)). */
  readonly jitter: number;
  /** A failure this long after the previous one starts again from `initialMs` (Infinity: never). */
  readonly resetAfterMs: number;
}

/** The delay after the `failures`-th consecutive failure (0 for the first). */
export function backoffDelayMs(
  failures: number,
  options: Omit<BackoffOptions, "resetAfterMs">,
  random: () => number = Math.random,
): number {
  const base = Math.min(options.maxMs, options.initialMs * options.factor ** failures);
  return base * (1 + options.jitter * random());
}

/** Stateful backoff: counts failures and forgets them after a quiet period or on {@link reset}. */
export class Backoff {
  readonly #options: BackoffOptions;
  readonly #random: () => number;
  readonly #now: () => number;
  #failures = 0;
  #lastFailureAt: number | undefined;

  constructor(
    options: BackoffOptions,
    random: () => number = Math.random,
    now: () => number = () => performance.now(),
  ) {
    this.#options = options;
    this.#random = random;
    this.#now = now;
  }

  /** The delay to wait after one more failure. */
  next(): number {
    const now = this.#now();
    if (this.#lastFailureAt !== undefined && now - this.#lastFailureAt >= this.#options.resetAfterMs)
      this.#failures = 0;
    this.#lastFailureAt = now;
    const delay = backoffDelayMs(this.#failures, this.#options, this.#random);
    // Far past any cap the count no longer matters; bounding it keeps factor ** failures finite.
    this.#failures = Math.min(this.#failures + 1, 64);
    return delay;
  }

  /** Forgets past failures. */
  reset(): void {
    this.#failures = 0;
    this.#lastFailureAt = undefined;
  }
}
