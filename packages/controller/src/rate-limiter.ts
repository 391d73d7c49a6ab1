/**
 * Rate limiters deciding how long a key waits before it is retried.
 *
 * Contract of {@link RateLimiter}: `when(key)` records one more failure of `key` and returns the
 * delay in ms before it may be retried; `forget(key)` clears the key's history (call it after a
 * success); `retries(key)` is the number of `when` calls since the last `forget`.
 */
import { type Clock, systemClock } from "./clock.js";
import { checkNumber } from "./errors.js";

export interface RateLimiter<K> {
  when(key: K): number;
  forget(key: K): void;
  retries(key: K): number;
}

/** Per-key exponential backoff: `baseMs · 2^failures`, capped at `maxMs` (defaults 5 ms … 1000 s). */
export class ExponentialBackoffRateLimiter<K> implements RateLimiter<K> {
  readonly #failures = new Map<K, number>();
  readonly #baseMs: number;
  readonly #maxMs: number;

  constructor(baseMs = 5, maxMs = 1_000_000) {
    this.#baseMs = checkNumber("baseMs", baseMs);
    this.#maxMs = checkNumber("maxMs", maxMs);
  }

  when(key: K): number {
    const failures = this.#failures.get(key) ?? 0;
    this.#failures.set(key, failures + 1);
    // 2^failures overflows to Infinity long after the cap is reached, so min() is enough.
    return Math.min(this.#maxMs, this.#baseMs * 2 ** failures);
  }

  forget(key: K): void {
    this.#failures.delete(key);
  }

  retries(key: K): number {
    return this.#failures.get(key) ?? 0;
  }
}

/**
 * One token bucket for all keys (defaults 10 per second, burst 100). Each `when` reserves a token;
 * when the bucket is empty the delay is the time until the reserved token has been refilled, so
 * reservations queue up behind each other. Keys have no history: `forget` and `retries` do nothing.
 */
export class TokenBucketRateLimiter<K> implements RateLimiter<K> {
  readonly #qps: number;
  readonly #burst: number;
  readonly #clock: Clock;
  #tokens: number;
  #last: number;

  constructor(qps = 10, burst = 100, clock: Clock = systemClock) {
    this.#qps = checkNumber("qps", qps, Number.MIN_VALUE);
    this.#burst = checkNumber("burst", burst, 1);
    this.#clock = clock;
    this.#tokens = burst;
    this.#last = clock.now();
  }

  when(_key: K): number {
    const now = this.#clock.now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) * this.#qps) / 1000);
    this.#last = now;
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : (-this.#tokens * 1000) / this.#qps;
  }

  forget(_key: K): void {}

  retries(_key: K): number {
    return 0;
  }
}

/** The longest delay of several limiters; `retries` is the largest of theirs. */
export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  readonly #limiters: readonly RateLimiter<K>[];

  constructor(...limiters: RateLimiter<K>[]) {
    this.#limiters = limiters;
  }

  when(key: K): number {
    let delay = 0;
    for (const l of this.#limiters) delay = Math.max(delay, l.when(key));
    return delay;
  }

  forget(key: K): void {
    for (const l of this.#limiters) l.forget(key);
  }

  retries(key: K): number {
    let n = 0;
    for (const l of this.#limiters) n = Math.max(n, l.retries(key));
    return n;
  }
}

/** client-go's default controller limiter: exponential 5 ms → 1000 s per key, and 10 qps burst 100 overall. */
export function defaultRateLimiter<K>(clock: Clock = systemClock): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(
    new ExponentialBackoffRateLimiter<K>(5, 1_000_000),
    new TokenBucketRateLimiter<K>(10, 100, clock),
  );
}
