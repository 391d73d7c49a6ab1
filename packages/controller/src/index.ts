// Public surface of @kubesdk/controller: work queue, controllers, leader election, events, webhooks, helpers.

export { clientRequestMetrics } from "./client-metrics.js";
export { type Clock, FakeClock, systemClock, type Timer } from "./clock.js";
export {
  type ConditionInput,
  type ConditionStatus,
  findCondition,
  isConditionTrue,
  removeCondition,
  setCondition,
} from "./conditions.js";
export {
  Controller,
  type ControllerOptions,
  type OwnsDeclaration,
  type WatchDeclaration,
} from "./controller.js";
export { ControllerError, type ControllerErrorCode } from "./errors.js";
export { type EventInput, EventRecorder, type EventRecorderOptions } from "./events.js";
export type { Fence } from "./fence.js";
export { fencedApply } from "./fenced-apply.js";
export {
  addFinalizer,
  type FinalizerHandlers,
  hasFinalizer,
  isBeingDeleted,
  removeFinalizer,
  withFinalizer,
} from "./finalizers.js";
export type { AnyResourceClient, WatchScope } from "./informer-source.js";
export {
  LEADER_ELECTION_DEFAULTS,
  type LeaderCallbacks,
  type LeaderElectionOptions,
  LeaderElector,
} from "./leader-election.js";
export {
  type ManagedControllerOptions,
  Manager,
  type ManagerOptions,
  type ManagerStatus,
} from "./manager.js";
export {
  type MemberRecord,
  SHARD_GROUP_LABEL,
  SHARD_VIEW_ANNOTATION,
} from "./member-leases.js";
export { PrometheusMetrics } from "./metrics.js";
export type { ControllerMetrics, ReconcileResult, WebhookMetrics } from "./metrics-api.js";
export { type OperationsServer, serveOperations } from "./operations.js";
export {
  controllerOf,
  controllerReference,
  setControllerReference,
} from "./owner-references.js";
export {
  allOf,
  annotationsChanged,
  anyOf,
  type CacheEvent,
  generationChanged,
  labelsChanged,
  type Predicate,
  resourceVersionChanged,
} from "./predicates.js";
export {
  defaultRateLimiter,
  ExponentialBackoffRateLimiter,
  MaxOfRateLimiter,
  type RateLimiter,
  TokenBucketRateLimiter,
} from "./rate-limiter.js";
export {
  Action,
  consoleLogger,
  type ErrorPolicy,
  type Logger,
  type ReconcileAction,
  type ReconcileRequest,
  type Reconciler,
  silentLogger,
  splitKey,
} from "./reconcile.js";
export { hash32, rendezvousWeight, shardOwner } from "./rendezvous.js";
export { SHARDING_DEFAULTS, type ShardedWork, Sharding, type ShardingOptions } from "./sharding.js";
export { applyStatus } from "./status.js";
export type { KeyMapper } from "./watches.js";
export {
  type AdmissionRequest,
  Denial,
  deny,
  type MutatingHandler,
  type ValidatingHandler,
} from "./webhooks/admission.js";
export type { CertificateFilesOptions, CertificatePair } from "./webhooks/certificate-files.js";
export {
  conversionStanza,
  type MutatingConfiguration,
  manifestWithConversion,
  type ValidatingConfiguration,
  type WebhookClientConfig,
  type WebhookEndpoint,
} from "./webhooks/configurations.js";
export type { Converted, HubAndSpokes, Spoke } from "./webhooks/conversion.js";
export { diffPatch } from "./webhooks/json-patch.js";
export { type AdmissionWebhookOptions, CONVERSION_PATH } from "./webhooks/registry.js";
export type {
  AdmissionOperation,
  AdmissionReview,
  AdmissionReviewRequest,
  AdmissionReviewResponse,
  ConversionReview,
  ConversionReviewRequest,
  ConversionReviewResponse,
  UserInfo,
} from "./webhooks/review-types.js";
export { type GeneratedCertificates, generateSelfSigned } from "./webhooks/self-signed.js";
export type { KindTarget, WebhookTarget } from "./webhooks/targets.js";
export { WebhookServer, type WebhookServerOptions, type WebhookTls } from "./webhooks/webhook-server.js";
export type { WorkGate } from "./work-gate.js";
export { WorkQueue, type WorkQueueMetrics, type WorkQueueOptions } from "./work-queue.js";
