/** Pure: the HTTP requests a ListerWatcher sends for a list page or a watch. */
import type { ApiRequest, QueryValue } from "@kubesdk/transport";

/** Options of one list request (docs/api-semantics.md §3). */
export interface ListQuery {
  /** Unset: the most recent state (a consistent read). "0": any state. "N": not older than N (exactly N with `limit`). */
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: "NotOlderThan" | "Exact";
  /** Page size; undefined or 0 asks for everything at once. */
  readonly limit?: number;
  /** Token of the previous page; the server then ignores resourceVersion. */
  readonly continue?: string;
}

/** Options of one watch request (docs/api-semantics.md §4). */
export interface WatchQuery {
  /** Unset with `sendInitialEvents`: a streaming list from the most recent state. */
  readonly resourceVersion?: string;
  readonly allowWatchBookmarks: boolean;
  /** The server ends the stream cleanly after this many seconds. */
  readonly timeoutSeconds?: number;
  /** Streaming list: the current state as ADDED events, closed by an annotated bookmark. */
  readonly sendInitialEvents?: boolean;
  readonly resourceVersionMatch?: "NotOlderThan";
}

/** What a collection request is about: its path and the selectors every request carries. */
export interface CollectionScope {
  readonly path: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Ask for PartialObjectMetadata instead of whole objects. */
  readonly metadataOnly?: boolean;
}

// A plain JSON fallback follows the metadata form: a server that cannot serve it (for example one
// that supports it for lists only) answers with whole objects, which the informer reduces itself.
const LIST_METADATA_ACCEPT =
  "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json";
const WATCH_METADATA_ACCEPT =
  "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json";

export function listRequest(scope: CollectionScope, query: ListQuery): ApiRequest {
  const q: Record<string, QueryValue> = {
    labelSelector: nonEmpty(scope.labelSelector),
    fieldSelector: nonEmpty(scope.fieldSelector),
    limit: query.limit !== undefined && query.limit > 0 ? query.limit : undefined,
  };
  if (query.continue !== undefined && query.continue !== "") q.continue = query.continue;
  else {
    q.resourceVersion = query.resourceVersion;
    q.resourceVersionMatch = query.resourceVersionMatch;
  }
  return {
    method: "GET",
    path: scope.path,
    query: q,
    ...(scope.metadataOnly ? { accept: LIST_METADATA_ACCEPT } : {}),
  };
}

export function watchRequest(scope: CollectionScope, query: WatchQuery): ApiRequest {
  return {
    method: "GET",
    path: scope.path,
    query: {
      allowWatchBookmarks: query.allowWatchBookmarks ? "true" : undefined,
      resourceVersion: query.resourceVersion,
      resourceVersionMatch: query.resourceVersionMatch,
      sendInitialEvents: query.sendInitialEvents === undefined ? undefined : String(query.sendInitialEvents),
      timeoutSeconds: query.timeoutSeconds,
      labelSelector: nonEmpty(scope.labelSelector),
      fieldSelector: nonEmpty(scope.fieldSelector),
      watch: "true",
    },
    ...(scope.metadataOnly ? { accept: WATCH_METADATA_ACCEPT } : {}),
  };
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s === "" ? undefined : s;
}
