import type { RetryOptions } from "./retry.js";

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call, including waits between retries and an open stream. */
  readonly signal?: AbortSignal;
  /** Overrides the transport's header timeout for this call. */
  readonly timeoutMs?: number;
  /** Overrides the retry options for this call. */
  readonly retries?: Partial<RetryOptions> | false;
}
