// The error API of @kubesdk/transport: every class it throws, the ApiError predicates and the Status
// helpers. Published as "@kubesdk/transport/errors" so other packages re-export it in one line.

export {
  CredentialError,
  type CredentialErrorCode,
  ExecPluginError,
  type ExecPluginErrorCode,
} from "../auth/errors.js";
export { NotInClusterError } from "../in-cluster.js";
export { KubeconfigError, type KubeconfigErrorCode } from "../kubeconfig/errors.js";
export {
  EventTooLargeError,
  MalformedEventError,
  TruncatedStreamError,
  UnsupportedWatchContentTypeError,
  WatchDecodeError,
} from "../watch/errors.js";
export {
  ApiError,
  type ApiErrorInit,
  type ApiErrorRequest,
  apiErrorFromResponse,
  apiErrorFromStatus,
  type FailedResponse,
  type FromStatusOptions,
  MAX_RETRY_AFTER_SECONDS,
  parseRetryAfter,
} from "./api-error.js";
export { CodedError, KubesdkError } from "./base.js";
export {
  type ApiErrorTest,
  isAlreadyExists,
  isApplyConflict,
  isConflict,
  isExpired,
  isForbidden,
  isInvalid,
  isNotFound,
  isServerTimeout,
  isServiceUnavailable,
  isTimeout,
  isTooLargeResourceVersion,
  isTooManyRequests,
  isUnauthorized,
} from "./predicates.js";
export type { ProtobufBodyDecoder } from "./protobuf-status.js";
export * from "./status.js";
export { type CheckedStatus, checkStatus, isStatusBody } from "./status-schema.js";
export {
  ConnectionError,
  type ConnectionErrorCode,
  InvalidRequestError,
  RequestAbortedError,
  ResponseDecodeError,
  TimeoutError,
  type TimeoutErrorCode,
  TlsError,
  TransportError,
} from "./transport-errors.js";
