/**
 * Exponential backoff for the reflector (client-go's defaults): 800 ms doubling to a 30 s cap,
 * jittered into [d, d·(1+jitter)), back to the start after a quiet period with no failures.
 */

export interface BackoffOptions {
  /** First delay (default 800 ms). */
  readonly initialMs: number;
  /** Cap of the delay before jitter (default 30 000 ms). */
  readonly maxMs: number;
  /** Growth per failure (default 2). */
  readonly factor: number;
  /** A delay d becomes a random value in [d, d·(1+jitter)) (default 1, i.e. [d, 2d)). */
  readonly jitter: number;
  /** A failure this long after the previous one starts again from `initialMs` (default 120 000 ms). */
  readonly resetAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = {
  initialMs: 800,
  maxMs: 30_000,
  factor: 2,
  jitter: 1,
  resetAfterMs: 120_000,
};

export class Backoff {
  readonly #options: BackoffOptions;
  readonly #random: () => number;
  readonly #now: () => number;
  #current: number;
  #lastFailureAt: number | undefined;

  constructor(
    options: BackoffOptions = DEFAULT_BACKOFF,
    random: () => number = Math.random,
    now: () => number = () => performance.now(),
  ) {
    this.#options = options;
    this.#random = random;
    this.#now = now;
    this.#current = options.initialMs;
  }

  /** The delay to wait after one more failure. */
  next(): number {
    const now = this.#now();
    if (this.#lastFailureAt !== undefined && now - this.#lastFailureAt >= this.#options.resetAfterMs)
      this.#current = this.#options.initialMs;
    this.#lastFailureAt = now;
    const base = Math.min(this.#current, this.#options.maxMs);
    this.#current = Math.min(this.#current * this.#options.factor, this.#options.maxMs);
    return base * (1 + this.#options.jitter * this.#random());
  }

  /** Forgets past failures. */
  reset(): void {
    this.#current = this.#options.initialMs;
    this.#lastFailureAt = undefined;
  }
}
