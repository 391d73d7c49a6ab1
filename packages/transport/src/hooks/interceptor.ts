import type { HttpMethod } from "../http/request.js";
import type { ResponseHeaders } from "../http/response.js";

/**
 * One try of a request as it is about to go out. `headers` may be changed by a hook (added,
 * replaced, removed); credentials are added after the hooks, so Authorization and the client
 * certificate stay the transport's.
 */
export interface OutgoingRequest {
  readonly method: HttpMethod;
  /** Path and query string, as sent (with the server URL's path prefix). */
  readonly path: string;
  /** The API server's host and port, e.g. "10.0.0.1:6443". */
  readonly host: string;
  readonly headers: Record<string, string | string[]>;
  /**
   * 1 for the first try of a call; every further try (a retry by the retry policy, or the resend
   * after a credential refresh on 401) counts up.
   */
  readonly attempt: number;
}

/** How one try ended: the response's status and headers, or the failure that left no response. */
export interface RequestOutcome {
  readonly request: OutgoingRequest;
  /** From the moment the try went out until its response headers arrived (or it failed). */
  readonly durationMs: number;
  /** The HTTP status; undefined when no response came (a connection failure, a timeout, an abort). */
  readonly status?: number;
  readonly headers?: ResponseHeaders;
  /** The typed transport error when no response came. */
  readonly error?: unknown;
}

/**
 * Sees every try of every request of a transport (reads, writes, watch connects, streams). Hooks are
 * synchronous or return a promise that is awaited; what a hook throws ends the call with that error
 * (it is not retried). See docs/guides/observability.md for the order relative to auth, retries and
 * redirects.
 */
export interface RequestInterceptor {
  /** Before the try goes out: in the order the interceptors are given. */
  onRequest?(request: OutgoingRequest): void | Promise<void>;
  /** When the try's response headers arrive or it fails: in the reverse order. */
  onResponse?(outcome: RequestOutcome): void | Promise<void>;
}
