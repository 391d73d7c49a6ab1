// Public surface of @kubesdk/transport: loading a connection (kubeconfig, in-cluster), auth
// providers, the HTTP transport and its options, errors, retry/backoff, and watch stream types.
// The error API is also published alone as "@kubesdk/transport/errors" (the client and the
// informer re-export it). Building blocks other kubesdk packages share (framers, frame decoders,
// request building, the dispatcher) are in ./internal.ts (`@kubesdk/transport/internal`), which
// is not a public API.

export { ExecAuth, type ExecAuthOptions } from "./auth/exec-auth.js";
export type { ExecApiVersion, ExecInteractiveMode, ExecPluginSpec } from "./auth/exec-plugin.js";
export { BasicAuth, NoAuth, StaticTokenAuth } from "./auth/static.js";
export { TokenFileAuth } from "./auth/token-file.js";
export type { AuthProvider, ClientCertificate, Credentials } from "./auth/types.js";
export type { ClusterConnection, ConnectionSource, Impersonation, TlsSettings } from "./connection.js";
export * from "./errors/index.js";
export type { OutgoingRequest, RequestInterceptor, RequestOutcome } from "./hooks/interceptor.js";
export type { CallOptions } from "./http/call-options.js";
export type { DispatcherFactory, DispatcherSettings } from "./http/dispatcher.js";
export type { ApiRequest, HeaderValues, HttpMethod, QueryValue } from "./http/request.js";
export type {
  BodyFlow,
  BodyReader,
  BodySink,
  HttpResponse,
  ResponseHeaders,
  StreamResponse,
} from "./http/response.js";
export type { RetryOptions } from "./http/retry.js";
export {
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
export type { RawWatchEvent, WatchEvent, WatchEventType, WatchFrameDecoder } from "./watch/watch-event.js";
