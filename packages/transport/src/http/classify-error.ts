import { ApiError } from "../errors/api-error.js";
import { KubesdkError } from "../errors/base.js";
import { ConnectionError, RequestAbortedError, TimeoutError, TlsError } from "../errors/transport-errors.js";

/** What the classifier needs to know about the call that failed. */
export interface FailureContext {
  /** The caller's signal: if it fired, any failure is reported as an abort. */
  readonly signal?: AbortSignal | undefined;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
}

const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/** Maps undici / Node network failures onto the typed transport errors; typed errors pass through. */
export function classifyError(err: unknown, context: FailureContext): Error {
  if (err instanceof KubesdkError || err instanceof ApiError) return err;
  if (context.signal?.aborted) return new RequestAbortedError(undefined, { cause: context.signal.reason });
  const code = errorCode(err);
  const cause = { cause: err };
  const message = err instanceof Error ? err.message : String(err);
  switch (code) {
    case "ECONNREFUSED":
      return new ConnectionError("CONNECTION_REFUSED", message, false, cause);
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new ConnectionError("DNS_LOOKUP_FAILED", message, false, cause);
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return new ConnectionError("HOST_UNREACHABLE", message, false, cause);
    case "UND_ERR_CONNECT_TIMEOUT":
      return new ConnectionError("CONNECT_TIMEOUT", message, false, cause);
    case "ECONNRESET":
    case "EPIPE":
      return new ConnectionError("CONNECTION_RESET", message, true, cause);
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
    case "UND_ERR_DESTROYED":
      return new ConnectionError("SOCKET_CLOSED", message, true, cause);
    case "UND_ERR_HEADERS_TIMEOUT":
      return new TimeoutError("REQUEST_TIMEOUT", context.headersTimeoutMs, cause);
    case "UND_ERR_BODY_TIMEOUT":
      return new TimeoutError("IDLE_TIMEOUT", context.bodyTimeoutMs, cause);
    case "UND_ERR_ABORTED":
    case "ABORT_ERR":
      return new RequestAbortedError(undefined, cause);
  }
  if (code !== undefined && TLS_CODE.test(code)) return new TlsError(`TLS failure: ${message}`, code, cause);
  if (err instanceof Error && err.name === "AbortError") return new RequestAbortedError(undefined, cause);
  return new ConnectionError("NETWORK_ERROR", message, true, cause);
}

// undici wraps some socket errors (UND_ERR_SOCKET with a cause of ECONNRESET); the innermost
// errno code is the most specific one.
function errorCode(err: unknown): string | undefined {
  const outer = codeOf(err);
  const inner = codeOf((err as { cause?: unknown } | undefined)?.cause);
  if (outer === "UND_ERR_SOCKET" && inner !== undefined && !inner.startsWith("UND_ERR_")) return inner;
  return outer ?? inner;
}

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
