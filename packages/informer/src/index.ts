// Public surface of @kubesdk/informer: list-then-watch caches of Kubernetes collections.

// The transport's error API (ApiError, isExpired, isConflict, …): what "error" events carry.
export * from "@kubesdk/transport/errors";

export type { BackoffOptions } from "./backoff.js";
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
  RelistInfo,
  ReplaceInfo,
  WatchEndInfo,
  WatchEventKind,
  WatchStartInfo,
} from "./events.js";
export { InformerFactory, type InformerScope, type SharedInformerOptions } from "./factory.js";
export type { AddInfo, EventHandlers, HandlerOptions } from "./handlers.js";
export type { Indexers, IndexFunc } from "./index-func.js";
export { byLabel, byNamespace, byNodeName, byOwnerUid, NAMESPACE_INDEX } from "./indexers.js";
export { type HandlerRegistration, Informer, type WaitForSyncOptions } from "./informer.js";
export type {
  ListCallOptions,
  ListerWatcher,
  ListerWatcherPage,
  ListQuery,
  WatchCallOptions,
  WatchQuery,
} from "./list-watcher.js";
export { objectKey } from "./object-meta.js";
export { INFORMER_DEFAULTS, type InformerOptions } from "./options.js";
export type { WatchEndReason } from "./reactions.js";
export type { InformerSelection } from "./selection.js";
export type { InformerStatsSnapshot } from "./stats.js";
export type { ReadonlyStore } from "./store.js";
export { DeletedFinalStateUnknown, deletedObject, isDeletedFinalStateUnknown } from "./tombstone.js";
