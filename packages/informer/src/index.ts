// Public surface of @kubesdk/informer: list-then-watch caches of Kubernetes collections.

// The transport's error API (ApiError, isExpired, isConflict, …): what "error" events carry.
export * from "@kubesdk/transport/errors";

export { Backoff, type BackoffOptions, DEFAULT_BACKOFF } from "./backoff.js";
export {
  HandlerError,
  IndexFunctionError,
  InformerStoppedError,
  InvalidInformerOptionError,
  InvalidListResponseError,
  SyncAbortedError,
  SyncTimeoutError,
  TransformError,
  type UnexpectedObjectCode,
  UnexpectedObjectError,
} from "./errors.js";
export type {
  BackoffInfo,
  ErrorContext,
  EventInfo,
  HandlerOverflowInfo,
  InformerEvents,
  ListDoneInfo,
  ListPageInfo,
  ListReason,
  ListStartInfo,
  ReflectorEvents,
  RelistInfo,
  ReplaceInfo,
  WatchEndInfo,
  WatchEventKind,
  WatchStartInfo,
} from "./events.js";
export { InformerFactory, type InformerScope, type SharedInformerOptions } from "./factory.js";
export type { AddInfo, EventHandlers, HandlerOptions } from "./handlers.js";
export { byLabel, byNamespace, byNodeName, byOwnerUid, NAMESPACE_INDEX } from "./indexers.js";
export {
  createInformer,
  type HandlerRegistration,
  Informer,
  type WaitForSyncOptions,
} from "./informer.js";
export {
  HttpListerWatcher,
  type HttpListerWatcherOptions,
  type ListerWatcher,
  type ListPage,
  mapWatchStream,
  type WatchCallOptions,
} from "./list-watcher.js";
export { objectKey } from "./object-meta.js";
export { INFORMER_DEFAULTS, type InformerOptions } from "./options.js";
export {
  classifyWatchEnd,
  decideAfterListFailure,
  decideAfterWatch,
  type ListFailureReaction,
  type ListFrom,
  type ListPlan,
  planFor,
  type WatchDecision,
  type WatchEndReason,
  type WatchOutcome,
  type WatchReaction,
} from "./reactions.js";
export { Reflector, type ReflectorConfig, type ReflectorSink, type ReflectorState } from "./reflector.js";
export {
  type CollectionScope,
  type ListQuery,
  listRequest,
  type WatchQuery,
  watchRequest,
} from "./requests.js";
export { collectionPath, type ResourceTarget, resolveResource } from "./resource.js";
export type { InformerStatsSnapshot } from "./stats.js";
export { type Indexers, type IndexFunc, type ReadonlyStore, type ReplaceDiff, Store } from "./store.js";
export { DeletedFinalStateUnknown, deletedObject, isDeletedFinalStateUnknown } from "./tombstone.js";
