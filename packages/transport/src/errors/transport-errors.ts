import { KubesdkError } from "./base.js";

/** Any failure below HTTP semantics: connecting, TLS, timeouts, aborts, undecodable bodies. */
export abstract class TransportError extends KubesdkError {
  /** The request that failed (`GET https://…/api/v1/pods`), once the transport has given up on it. */
  request: string | undefined;
  /** How many times the request was tried, the first included. */
  tries: number | undefined;

  /**
   * Names the request and its tries in the message (`GET https://h/api: connect ECONNREFUSED (5
   * tries in 6.1 s)`), so a log line says what failed and that it was retried. Called once, by the
   * transport's retry loop.
   */
  describeRequest(request: string, tries: number, elapsedMs: number): void {
    if (this.request !== undefined) return;
    this.request = request;
    this.tries = tries;
    const retried = tries > 1 ? ` (${tries} tries in ${(elapsedMs / 1000).toFixed(1)} s)` : "";
    this.message = `${request}: ${this.message}${retried}`;
  }
}

/** Codes of {@link ConnectionError}. */
export type ConnectionErrorCode =
  | "CONNECTION_REFUSED"
  | "CONNECTION_RESET"
  | "DNS_LOOKUP_FAILED"
  | "CONNECT_TIMEOUT"
  | "HOST_UNREACHABLE"
  | "SOCKET_CLOSED"
  | "NETWORK_ERROR";

/**
 * The TCP connection failed. `requestSent` is false only when the request provably never left
 * this process (refused, DNS, unreachable, connect timeout), which is what makes a write safe to retry.
 */
export class ConnectionError extends TransportError {
  readonly code: ConnectionErrorCode;
  readonly requestSent: boolean;

  constructor(code: ConnectionErrorCode, message: string, requestSent: boolean, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.requestSent = requestSent;
  }
}

/** The TLS handshake failed (untrusted or mismatched server certificate, rejected client certificate). */
export class TlsError extends TransportError {
  readonly code = "TLS_ERROR" as const;

  /** `tlsCode` is Node's/OpenSSL's own code, e.g. `UNABLE_TO_VERIFY_LEAF_SIGNATURE`. */
  constructor(
    message: string,
    readonly tlsCode: string | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Codes of {@link TimeoutError}. */
export type TimeoutErrorCode = "REQUEST_TIMEOUT" | "IDLE_TIMEOUT";

/**
 * A deadline passed: `REQUEST_TIMEOUT` when response headers did not arrive in time,
 * `IDLE_TIMEOUT` when a response body (e.g. a watch) received no bytes for `timeoutMs`.
 */
export class TimeoutError extends TransportError {
  readonly code: TimeoutErrorCode;
  readonly timeoutMs: number;

  constructor(code: TimeoutErrorCode, timeoutMs: number, options?: ErrorOptions) {
    super(
      code === "REQUEST_TIMEOUT"
        ? `no response headers within ${timeoutMs} ms`
        : `no response bytes received for ${timeoutMs} ms`,
      options,
    );
    this.code = code;
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's AbortSignal fired (or the stream was closed) before the call completed; `cause` is the abort reason. */
export class RequestAbortedError extends TransportError {
  readonly code = "ABORTED" as const;

  constructor(message = "the request was aborted", options?: ErrorOptions) {
    super(message, options);
  }
}

/** A successful response whose body could not be decoded as the expected representation. */
export class ResponseDecodeError extends TransportError {
  readonly code = "RESPONSE_DECODE" as const;

  constructor(
    message: string,
    readonly contentType: string | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A request description that cannot be sent (bad path, method or header); a programming error. */
export class InvalidRequestError extends TransportError {
  readonly code = "INVALID_REQUEST" as const;
}
