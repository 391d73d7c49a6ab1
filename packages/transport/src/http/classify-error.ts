import { KubesdkError } from "../errors/base.js";
import {
  ConnectionError,
  type ConnectionErrorCode,
  RequestAbortedError,
  TimeoutError,
  TlsError,
} from "../errors/transport-errors.js";

/** What the classifier needs to know about the call that failed. */
export interface FailureContext {
  /** The caller's signal: if it fired, any failure is reported as an abort. */
  readonly signal?: AbortSignal | undefined;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
}

const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/** Connection failures by errno / undici code: which ConnectionError and whether the request left. */
const CONNECTION_FAILURES: Readonly<Record<string, readonly [ConnectionErrorCode, boolean]>> = {
  ECONNREFUSED: ["CONNECTION_REFUSED", false],
  ENOTFOUND: ["DNS_LOOKUP_FAILED", false],
  EAI_AGAIN: ["DNS_LOOKUP_FAILED", false],
  EHOSTUNREACH: ["HOST_UNREACHABLE", false],
  ENETUNREACH: ["HOST_UNREACHABLE", false],
  UND_ERR_CONNECT_TIMEOUT: ["CONNECT_TIMEOUT", false],
  ECONNRESET: ["CONNECTION_RESET", true],
  EPIPE: ["CONNECTION_RESET", true],
  UND_ERR_SOCKET: ["SOCKET_CLOSED", true],
  UND_ERR_CLOSED: ["SOCKET_CLOSED", true],
  UND_ERR_DESTROYED: ["SOCKET_CLOSED", true],
};

const ABORT_CODES = new Set(["UND_ERR_ABORTED", "ABORT_ERR"]);

/** Maps undici / Node network failures onto the typed transport errors; typed errors pass through. */
export function classifyError(err: unknown, context: FailureContext): Error {
  if (err instanceof KubesdkError) return err;
  if (context.signal?.aborted) return new RequestAbortedError(undefined, { cause: context.signal.reason });
  const code = errorCode(err);
  const cause = { cause: err };
  const message = err instanceof Error ? err.message : String(err);
  const connection = code === undefined ? undefined : CONNECTION_FAILURES[code];
  if (connection !== undefined) return new ConnectionError(connection[0], message, connection[1], cause);
  if (code === "UND_ERR_HEADERS_TIMEOUT")
    return new TimeoutError("REQUEST_TIMEOUT", context.headersTimeoutMs, cause);
  if (code === "UND_ERR_BODY_TIMEOUT") return new TimeoutError("IDLE_TIMEOUT", context.bodyTimeoutMs, cause);
  if (code !== undefined && ABORT_CODES.has(code)) return new RequestAbortedError(undefined, cause);
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
