/**
 * The reflector's backoff: the shared {@link Backoff} of @kubesdk/transport (the same one request
 * retries use) with client-go's defaults: 800 ms doubling to a 30 s cap, jittered into [d, 2d),
 * back to the start after two minutes without failures.
 */
import type { BackoffOptions } from "@kubesdk/transport";

export { Backoff, type BackoffOptions } from "@kubesdk/transport";

export const DEFAULT_BACKOFF: BackoffOptions = {
  initialMs: 800,
  maxMs: 30_000,
  factor: 2,
  jitter: 1,
  resetAfterMs: 120_000,
};
