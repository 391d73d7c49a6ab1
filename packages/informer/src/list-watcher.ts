/**
 * ListerWatcher: the two calls a reflector needs (list one page, open one watch). The default one
 * goes through a @kubesdk/client reader, so paths, namespaces, selectors, encodings and metadata-only
 * requests are built by the client alone; tests inject their own.
 */
import type { ReadClient } from "@kubesdk/client";
import type { WatchStream } from "@kubesdk/transport";
import { InvalidListResponseError } from "./errors.js";
import type { InformerSelection } from "./selection.js";

/** Options of one list request. */
export interface ListQuery {
  /** Unset: the most recent state (a consistent read). "0": any state. "N": not older than N (exactly N with `limit`). */
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: "NotOlderThan" | "Exact";
  /** Page size; undefined asks for everything at once. */
  readonly limit?: number;
  /** Token of the previous page; the server then ignores resourceVersion. */
  readonly continue?: string;
}

/** Options of one watch request. */
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

/** One page of a list. */
export interface ListerWatcherPage<T> {
  readonly items: T[];
  /** The revision of the snapshot the page was read from. */
  readonly resourceVersion: string;
  /** Token for the next page; undefined on the last page. */
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/** Per-list call options. */
export interface ListCallOptions {
  readonly signal: AbortSignal;
  /**
   * Optional to call: the page's continue token as soon as it is known, before the page is decoded,
   * so the next page can be requested meanwhile. A lister that never calls it loses only that overlap.
   * `bodyBytes`, the size of the page's response, sizes the next page (without it, pages keep their size).
   */
  readonly onContinue?: (token: string, bodyBytes?: number) => void;
}

/** Per-watch call options. */
export interface WatchCallOptions {
  readonly signal: AbortSignal;
  /** No bytes for this long ends the stream with TimeoutError IDLE_TIMEOUT (0: never). */
  readonly idleTimeoutMs: number;
}

/**
 * Lists and watches one collection. Failures are thrown as the transport's typed errors
 * (ApiError, ConnectionError, TimeoutError, WatchDecodeError): the reflector decides what to do.
 */
export interface ListerWatcher<T> {
  list(query: ListQuery, options: ListCallOptions): Promise<ListerWatcherPage<T>>;
  watch(query: WatchQuery, options: WatchCallOptions): WatchStream<T>;
}

/**
 * A ListerWatcher over a client reader. Requests go out without transport retries: retrying (and
 * backing off, and choosing the resourceVersion to retry at) is the reflector's job.
 */
export function clientListerWatcher<T>(
  reader: ReadClient<T, { items: T[] }>,
  selection: InformerSelection,
): ListerWatcher<T> {
  // Builds a request once, so bad options (a ".." namespace, a namespace on a cluster-scoped
  // resource) fail when the informer is created rather than on its first list.
  reader.requests.list(selection);
  const where = () => reader.requests.list(selection).path;
  return {
    async list(query, { signal, onContinue }) {
      const list = await reader.list({ ...selection, ...query, signal, retries: false, onContinue });
      return pageOf(list, where);
    },
    watch(query, { signal, idleTimeoutMs }) {
      return reader.watch({ ...selection, ...query, signal, idleTimeoutMs, retries: false });
    },
  };
}

function pageOf<T>(list: unknown, where: () => string): ListerWatcherPage<T> {
  const body = list as { items?: unknown; metadata?: Record<string, unknown> } | null;
  if (typeof body !== "object" || body === null || !Array.isArray(body.items))
    throw new InvalidListResponseError(`the list response of ${where()} has no items array`);
  const meta = body.metadata ?? {};
  if (typeof meta.resourceVersion !== "string" || meta.resourceVersion === "")
    throw new InvalidListResponseError(`the list response of ${where()} has no metadata.resourceVersion`);
  const next = typeof meta.continue === "string" && meta.continue !== "" ? meta.continue : undefined;
  const remaining = typeof meta.remainingItemCount === "number" ? meta.remainingItemCount : undefined;
  return {
    items: body.items as T[],
    resourceVersion: meta.resourceVersion,
    ...(next !== undefined ? { continue: next } : {}),
    ...(remaining !== undefined ? { remainingItemCount: remaining } : {}),
  };
}
