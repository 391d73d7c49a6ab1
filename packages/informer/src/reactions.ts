/**
 * Pure decision tables of the reflector (docs/api-semantics.md §7): what a watch's end or a failed list
 * means, and what to do next. Kept apart from the I/O so every branch can be tested on its own.
 */
import {
  ConnectionError,
  EventTooLargeError,
  isExpired,
  isInvalid,
  isTooLargeResourceVersion,
  isTooManyRequests,
  MalformedEventError,
  TimeoutError,
  TruncatedStreamError,
} from "@kubesdk/transport";

/** Why a watch stream ended. */
export type WatchEndReason =
  /** The server ended it (its timeout, or a drop) after at least one event or the minimum duration. */
  | "closed"
  /** It ended before the minimum duration without a single event: counts as a failure. */
  | "short"
  /** 410: the resourceVersion was compacted away (ERROR event or HTTP 410). */
  | "expired"
  /** 429 Too Many Requests. */
  | "throttled"
  /** The connection was refused. */
  | "refused"
  /** No bytes (not even bookmarks) for the idle limit: the stream is presumed dead. */
  | "idle"
  /** The connection broke mid-stream (reset, closed, or cut in the middle of an event). */
  | "connection-lost"
  /** An event could not be decoded (or was larger than allowed). */
  | "malformed"
  /** The server rejected a streaming list (422): it does not support them. */
  | "unsupported"
  /** Any other failure. */
  | "failed"
  /** The informer was stopped. */
  | "stopped";

/** How one watch went. */
export interface WatchOutcome {
  /** Undefined when the stream ended cleanly. */
  readonly error: unknown;
  /** Events received, bookmarks included. */
  readonly events: number;
  readonly durationMs: number;
  /** A streaming list that had not yet received its end bookmark. */
  readonly initialPending: boolean;
  readonly stopped: boolean;
}

/** Where the next list (or streaming list) starts: the last seen resourceVersion, or the latest state. */
export type ListFrom = "last" | "latest";

export type Wait = "none" | "backoff";

export type WatchReaction =
  | { readonly next: "watch"; readonly wait: Wait; readonly retryAfterMs?: number }
  | { readonly next: "list"; readonly wait: Wait; readonly from: ListFrom; readonly retryAfterMs?: number }
  | { readonly next: "fallback-to-list" }
  | { readonly next: "stop" };

export interface WatchDecision {
  readonly reason: WatchEndReason;
  readonly reaction: WatchReaction;
  /** Whether the end is worth an `error` report (normal ends and expiry are not). */
  readonly report: boolean;
}

export function classifyWatchEnd(o: WatchOutcome, minWatchDurationMs: number): WatchEndReason {
  if (o.stopped) return "stopped";
  const err = o.error;
  const healthy = o.events > 0 || o.durationMs >= minWatchDurationMs;
  if (err === undefined) return healthy ? "closed" : "short";
  if (isExpired(err)) return "expired";
  if (isTooManyRequests(err)) return "throttled";
  if (err instanceof ConnectionError && err.code === "CONNECTION_REFUSED") return "refused";
  if (err instanceof TimeoutError && err.code === "IDLE_TIMEOUT") return "idle";
  if (err instanceof MalformedEventError || err instanceof EventTooLargeError) return "malformed";
  if (
    err instanceof TruncatedStreamError ||
    (err instanceof ConnectionError && (err.code === "CONNECTION_RESET" || err.code === "SOCKET_CLOSED"))
  )
    return "connection-lost";
  if (o.initialPending && isInvalid(err)) return "unsupported";
  return "failed";
}

/**
 * After a watch (or a streaming list) ends:
 * - clean end after an event or the minimum duration, an idle stream, or a broken connection on a
 *   stream that had worked → watch again at once at the last resourceVersion (no list);
 * - 429 or connection refused → wait (Retry-After when given) and watch again at the same resourceVersion;
 * - 410 → list again at once at the last resourceVersion;
 * - a short empty stream, a malformed event, or any other failure → back off, then list again
 *   (from the latest state when the server said the resourceVersion is too large);
 * - a streaming list that had not finished its initial events starts over as a streaming list
 *   (`next: "list"` — the reflector lists the way it is configured to), or falls back to
 *   list+watch when the server rejects streaming lists.
 */
export function decideAfterWatch(o: WatchOutcome, minWatchDurationMs: number): WatchDecision {
  const reason = classifyWatchEnd(o, minWatchDurationMs);
  const retryAfterMs = retryAfterOf(o.error);
  const report = o.error !== undefined && reason !== "expired" && reason !== "stopped";
  const decide = (reaction: WatchReaction): WatchDecision => ({ reason, reaction, report });
  const relist = (wait: Wait, from: ListFrom = "last"): WatchDecision =>
    decide({ next: "list", wait, from, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
  const healthy = o.events > 0 || o.durationMs >= minWatchDurationMs;

  if (reason === "stopped") return decide({ next: "stop" });
  if (o.initialPending) {
    if (reason === "unsupported") return decide({ next: "fallback-to-list" });
    if (reason === "expired") return relist("none", "latest");
    return relist("backoff", isTooLargeResourceVersion(o.error) ? "latest" : "last");
  }
  switch (reason) {
    case "closed":
    case "idle":
      return decide({ next: "watch", wait: "none" });
    case "connection-lost":
      return healthy ? decide({ next: "watch", wait: "none" }) : relist("backoff");
    case "throttled":
    case "refused":
      return decide({
        next: "watch",
        wait: "backoff",
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      });
    case "expired":
      return relist("none");
    default:
      return relist("backoff", isTooLargeResourceVersion(o.error) ? "latest" : "last");
  }
}

/**
 * A watch that delivered events or bookmarks and stayed open at least `minWatchDurationMs` was
 * healthy: the failures before it are over, so the backoff starts again from its first delay (like
 * client-go's backoff manager) instead of waiting for its quiet period, which dense faults never leave.
 */
export function wasHealthy(o: WatchOutcome, minWatchDurationMs: number): boolean {
  return o.events > 0 && o.durationMs >= minWatchDurationMs;
}

/** A list plan: the resourceVersion to list at and the page size. */
export interface ListPlan {
  /** Undefined lists the most recent state. */
  readonly resourceVersion: string | undefined;
  /** Undefined lists everything in one response. */
  readonly limit: number | undefined;
}

export type ListFailureReaction =
  | { readonly next: "list"; readonly wait: Wait; readonly plan: ListPlan; readonly retryAfterMs?: number }
  | { readonly next: "stop" };

/**
 * After a list page fails:
 * - 410 on a continue page → one full list without limit at the same resourceVersion, at once
 *   (paging again could expire again);
 * - 410 or "too large resource version" on a list at a resourceVersion → list the most recent state
 *   (resourceVersion unset, paged): at once when the list followed a healthy watch (the server is
 *   fine, only the revision is gone; the next list has no resourceVersion, so this cannot loop),
 *   else after a backoff;
 * - anything else → back off and try the same list again.
 */
export function decideAfterListFailure(
  err: unknown,
  plan: ListPlan,
  onContinuePage: boolean,
  stopped: boolean,
  pageSize: number | undefined,
  afterHealthyWatch = false,
): ListFailureReaction {
  if (stopped) return { next: "stop" };
  if (onContinuePage && isExpired(err))
    return { next: "list", wait: "none", plan: { resourceVersion: plan.resourceVersion, limit: undefined } };
  const retryAfterMs = retryAfterOf(err);
  const retry = retryAfterMs !== undefined ? { retryAfterMs } : {};
  if (plan.resourceVersion !== undefined && (isExpired(err) || isTooLargeResourceVersion(err))) {
    const wait = afterHealthyWatch && retryAfterMs === undefined ? "none" : "backoff";
    return { next: "list", wait, plan: { resourceVersion: undefined, limit: pageSize }, ...retry };
  }
  return { next: "list", wait: "backoff", plan, ...retry };
}

/** Page size of a list at `resourceVersion`: such lists are not paged (docs/api-semantics.md §7). */
export function planFor(resourceVersion: string | undefined, pageSize: number | undefined): ListPlan {
  return resourceVersion === undefined
    ? { resourceVersion, limit: pageSize }
    : { resourceVersion, limit: undefined };
}

function retryAfterOf(err: unknown): number | undefined {
  const s = (err as { retryAfterSeconds?: unknown } | null | undefined)?.retryAfterSeconds;
  return typeof s === "number" && s >= 0 ? s * 1000 : undefined;
}
