// Public surface of @kubesdk/transport. The error API is also published alone as
// "@kubesdk/transport/errors", which the client and the informer re-export.

export { ExecAuth, type ExecAuthOptions } from "./auth/exec-auth.js";
export {
  EXEC_API_VERSIONS,
  EXEC_INTERACTIVE_MODES,
  type ExecApiVersion,
  type ExecClusterInfo,
  type ExecCredentialStatus,
  type ExecInteractiveMode,
  type ExecPluginSpec,
  type ExecRunContext,
  runExecPlugin,
} from "./auth/exec-plugin.js";
export { StatCachedFile, type StatCachedFileOptions } from "./auth/stat-cached-file.js";
export { BasicAuth, NoAuth, StaticTokenAuth } from "./auth/static.js";
export { TokenFileAuth } from "./auth/token-file.js";
export type { AuthProvider, ClientCertificate, Credentials } from "./auth/types.js";
export type { ClusterConnection, ConnectionSource, Impersonation, TlsSettings } from "./connection.js";
export * from "./errors/index.js";
export { createDispatcher, type DispatcherFactory, type DispatcherSettings } from "./http/dispatcher.js";
export { decodeJsonBody } from "./http/json-body.js";
export {
  type ApiRequest,
  buildHttpRequest,
  encodeQuery,
  type HeaderValues,
  type HttpMethod,
  type HttpRequestParts,
  type QueryValue,
  type RequestContext,
  withCredentials,
} from "./http/request.js";
export type { HttpResponse, ResponseHeaders, StreamResponse } from "./http/response.js";
export {
  DEFAULT_RETRY_OPTIONS,
  isRetryable,
  type RetryOptions,
  resolveRetryOptions,
  retryDelayMs,
} from "./http/retry.js";
export {
  type CallOptions,
  createTransport,
  HttpTransport,
  type TimeoutOptions,
  type TransportOptions,
} from "./http/transport.js";
export { defaultUserAgent } from "./http/user-agent.js";
export type { WatchOptions, WatchStream } from "./http/watch-stream.js";
export {
  DEFAULT_SERVICE_ACCOUNT_DIR,
  type InClusterOptions,
  inClusterConnection,
  isInCluster,
} from "./in-cluster.js";
export { KubeConfig, loadKubeconfig } from "./kubeconfig/kube-config.js";
export { type KubeconfigLocation, kubeconfigCandidates } from "./kubeconfig/load.js";
export type { ClusterEntry, ContextEntry, EntryOrigin, ExecEntry, UserEntry } from "./kubeconfig/model.js";
export type { KubeconfigOverrides } from "./kubeconfig/resolve.js";
export type { CredentialOptions } from "./kubeconfig/resolve-user.js";
export { type LoadConnectionOptions, loadClusterConnection } from "./load-connection.js";
export { Backoff, type BackoffOptions, backoffDelayMs } from "./retry/backoff.js";
export { type RetryPolicy, retry } from "./retry/retry.js";
export { sleep } from "./retry/sleep.js";
export { VERSION } from "./version.js";
export { type Framer, LengthPrefixedFramer, LineFramer } from "./watch/framers.js";
export { decodeJsonWatchFrame } from "./watch/json-frame.js";
export { decodeProtobufWatchFrame } from "./watch/protobuf-frame.js";
export {
  DEFAULT_MAX_WATCH_EVENT_BYTES,
  WatchDecoder,
  type WatchDecoderOptions,
  type WatchDecoderSelection,
  type WatchFraming,
  watchDecoderForContentType,
} from "./watch/watch-decoder.js";
export type {
  DecodedWatchEvent,
  RawWatchEvent,
  WatchErrorEvent,
  WatchEvent,
  WatchEventType,
  WatchFrameDecoder,
} from "./watch/watch-event.js";
