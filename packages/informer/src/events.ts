/** The events an informer emits (and the subset its reflector produces), with their payloads. */
import type { WatchEndReason } from "./reactions.js";

/** Why a list (or a streaming list) was started. */
export type ListReason =
  | "initial"
  /** The watch ended in a way that needs a fresh list; see {@link WatchEndReason}. */
  | WatchEndReason
  /** A continue token expired mid-list: one full list without limit follows. */
  | "continue-expired"
  /** The server rejected streaming lists (422): list+watch from now on. */
  | "streaming-list-unsupported";

export interface ListStartInfo {
  readonly reason: ListReason;
  /** The resourceVersion asked for; undefined means the most recent state. */
  readonly resourceVersion: string | undefined;
  /** The page size; undefined for an unpaged list. */
  readonly limit: number | undefined;
  /** True for a streaming list (a watch with sendInitialEvents). */
  readonly streaming: boolean;
}

/** Progress of an initial list: one per page, or one per `pageSize` objects of a streaming list. */
export interface ListPageInfo {
  /** 1-based page (or batch) number. */
  readonly page: number;
  /** Objects in this page. */
  readonly items: number;
  /** Objects received so far in this list. */
  readonly total: number;
  /** Whether more is coming. */
  readonly more: boolean;
  /** The server's estimate of objects left, when it gives one. */
  readonly remainingItemCount?: number;
  readonly streaming: boolean;
}

export interface ListDoneInfo {
  readonly items: number;
  readonly pages: number;
  readonly resourceVersion: string;
  readonly durationMs: number;
  readonly streaming: boolean;
}

export interface WatchStartInfo {
  readonly resourceVersion: string | undefined;
  readonly timeoutSeconds: number;
  readonly streaming: boolean;
}

export interface WatchEndInfo {
  readonly reason: WatchEndReason;
  /** Events received on this stream, bookmarks included. */
  readonly events: number;
  readonly durationMs: number;
  readonly streaming: boolean;
  readonly error?: unknown;
}

export interface RelistInfo {
  readonly reason: ListReason;
  readonly resourceVersion: string | undefined;
}

export interface BackoffInfo {
  readonly delayMs: number;
  readonly reason: string;
  /** The server's Retry-After, when it sent one (the delay is at least this). */
  readonly retryAfterMs?: number;
}

/** Where an error reported on the `error` event happened. */
export interface ErrorContext {
  readonly during: "list" | "watch" | "object" | "transform" | "index" | "handler" | "listener";
  /** True when the informer retries by itself (lists and watches always are). */
  readonly willRetry: boolean;
  /** The handler's name, for handler errors. */
  readonly handler?: string;
}

/** Events the reflector produces (the informer re-emits them). */
export interface ReflectorEvents {
  listStart: [info: ListStartInfo];
  listPage: [info: ListPageInfo];
  listDone: [info: ListDoneInfo];
  relist: [info: RelistInfo];
  watchStart: [info: WatchStartInfo];
  watchEnd: [info: WatchEndInfo];
  backoff: [info: BackoffInfo];
  error: [error: Error, context: ErrorContext];
}

export type WatchEventKind = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK";

export interface EventInfo {
  readonly type: WatchEventKind;
  readonly resourceVersion: string | undefined;
  readonly storeSize: number;
}

/** The store was replaced by a (re)list; counts of the minimal difference. */
export interface ReplaceInfo {
  readonly initial: boolean;
  readonly resourceVersion: string;
  readonly added: number;
  readonly updated: number;
  readonly deleted: number;
  readonly unchanged: number;
  readonly storeSize: number;
}

export interface HandlerOverflowInfo {
  readonly handler: string;
  /** Notifications dropped; the handler is brought up to date from the store instead. */
  readonly dropped: number;
}

/** Every event of an Informer. */
export interface InformerEvents extends ReflectorEvents {
  /** The initial state is in the store and every handler has received its initial adds. */
  synced: [];
  /** One watch event applied to the store (or a bookmark). */
  event: [info: EventInfo];
  replace: [info: ReplaceInfo];
  handlerOverflow: [info: HandlerOverflowInfo];
  stopped: [];
}
