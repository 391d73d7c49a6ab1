// Public surface of @kubesdk/transport: loading a connection (kubeconfig, in-cluster), auth
// providers, the HTTP transport and its options, errors, and watch stream types. Building blocks
// other kubesdk packages share (framers, frame decoders, request building, the dispatcher) are in
// ./internal.ts (`@kubesdk/transport/internal`), which is not a public API.

export {
  CredentialError,
  type CredentialErrorCode,
  ExecPluginError,
  type ExecPluginErrorCode,
} from "./auth/errors.js";
export { ExecAuth, type ExecAuthOptions } from "./auth/exec-auth.js";
export type { ExecApiVersion, ExecInteractiveMode, ExecPluginSpec } from "./auth/exec-plugin.js";
export { BasicAuth, NoAuth, StaticTokenAuth } from "./auth/static.js";
export { TokenFileAuth } from "./auth/token-file.js";
export type { AuthProvider, ClientCertificate, Credentials } from "./auth/types.js";
export type { ClusterConnection, ConnectionSource, Impersonation, TlsSettings } from "./connection.js";
export {
  ApiError,
  type ApiErrorRequest,
  apiErrorFromResponse,
  apiErrorFromStatus,
  type FailedResponse,
  type FromStatusOptions,
  MAX_RETRY_AFTER_SECONDS,
  parseRetryAfter,
} from "./errors/api-error.js";
export { KubesdkError } from "./errors/base.js";
export {
  isAlreadyExists,
  isApplyConflict,
  isConflict,
  isExpired,
  isForbidden,
  isGone,
  isInvalid,
  isNotFound,
  isServerTimeout,
  isServiceUnavailable,
  isTimeout,
  isTooLargeResourceVersion,
  isTooManyRequests,
  isUnauthorized,
} from "./errors/predicates.js";
export {
  isStatusBody,
  reasonForHttpCode,
  type StatusBody,
  type StatusCause,
  type StatusDetails,
  type StatusReason,
} from "./errors/status.js";
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
} from "./errors/transport-errors.js";
export type { DispatcherFactory, DispatcherSettings } from "./http/dispatcher.js";
export type { ApiRequest, HeaderValues, HttpMethod, QueryValue } from "./http/request.js";
export type { HttpResponse, ResponseHeaders, StreamResponse } from "./http/response.js";
export type { RetryOptions } from "./http/retry.js";
export {
  type CallOptions,
  createTransport,
  HttpTransport,
  type TimeoutOptions,
  type TransportOptions,
} from "./http/transport.js";
export type { WatchStream, WatchStreamOptions } from "./http/watch-stream.js";
export {
  type InClusterOptions,
  inClusterConnection,
  isInCluster,
  NotInClusterError,
} from "./in-cluster.js";
export { KubeconfigError, type KubeconfigErrorCode } from "./kubeconfig/errors.js";
export { KubeConfig, loadKubeconfig } from "./kubeconfig/kube-config.js";
export { type KubeconfigLocation, kubeconfigCandidates } from "./kubeconfig/load.js";
export type { ClusterEntry, ContextEntry, EntryOrigin, ExecEntry, UserEntry } from "./kubeconfig/model.js";
export type { KubeconfigOverrides } from "./kubeconfig/resolve.js";
export type { CredentialOptions } from "./kubeconfig/resolve-user.js";
export { type LoadConnectionOptions, loadClusterConnection } from "./load-connection.js";
export { VERSION } from "./version.js";
export {
  EventTooLargeError,
  MalformedEventError,
  TruncatedStreamError,
  UnsupportedWatchContentTypeError,
  WatchDecodeError,
} from "./watch/errors.js";
export type { RawWatchEvent, WatchEvent, WatchEventType, WatchFrameDecoder } from "./watch/watch-event.js";
