/**
 * @kubesdk/server — an in-memory Kubernetes API server with the real wire
 * semantics, for contract tests and as a fast fake cluster.
 */

export { StatusError } from "./api/status.js";
export type {
  ClusterOptions,
  PodBehaviour,
  PodBehaviours,
  PodStage,
  SimulatedNodeConfig,
  SimulatedNodes,
} from "./cluster/index.js";
export {
  type FailureKind,
  FaultController,
  type FaultLogEntry,
  type FaultMatch,
} from "./faults/fault-controller.js";
export type { AnonymousPolicy, UserInfo } from "./http/auth.js";
export { renderKubeconfig } from "./kubeconfig.js";
export {
  type KubeletEndpoint,
  type KubeletEndpointOptions,
  startKubeletEndpoint,
} from "./kubelet/endpoint.js";
export {
  type MetricsEndpoint,
  type MetricsEndpointOptions,
  startMetricsEndpoint,
} from "./kubelet/metrics-endpoint.js";
export type { MetricsSource } from "./pods/metrics.js";
export { type LogEntry, PodRuntime, type PodSource } from "./pods/runtime.js";
export type {
  ContainerRef,
  PodHttpHandler,
  PodRef,
  PodRuntimeOptions,
  ProcessContext,
  ProcessOutcome,
  SimulatedUsage,
} from "./pods/types.js";
export { type RunningServer, type StartOptions, startServer } from "./server.js";
export { CompactedError, type HistoryWindow, MvccStore, type StoreEvent } from "./storage/mvcc.js";
export { ObjectTooLargeError } from "./storage/object-text.js";
export type { KeyPair } from "./tls.js";
export type { OpenWatch, WatchRegistry, WatchSettings } from "./watch/serve-watch.js";
