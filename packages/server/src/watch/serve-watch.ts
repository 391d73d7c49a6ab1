/**
 * Serves one WATCH request; its stages are listed at `serveWatch`. Framing lives in
 * watch-framing.ts, the fan-out of store events in watch-hub.ts.
 */
import type { ServerResponse } from "node:http";
import { type Status, StatusError } from "../api/status.js";
import { type HandlerContext, listPrefix, present } from "../endpoints/handlers/context.js";
import { convertsByWebhook, presentAll, presentOne } from "../endpoints/handlers/converted.js";
import { buildFilter } from "../endpoints/handlers/filter.js";
import { waitForRevision } from "../endpoints/handlers/resource-version.js";
import type { MediaChoice } from "../http/negotiate.js";
import { apiVersionOf, type ServedResource } from "../resources/served.js";
import type { StoredObject, StoreEvent } from "../storage/mvcc.js";
import { joinReplay } from "./replay-join.js";
import { WatchEncoder, watchContentType } from "./watch-framing.js";
import type { WatchEventType, WatchHub } from "./watch-hub.js";
import { parseWatchOptions, type WatchOptions } from "./watch-options.js";
import { type WatchEndReason, WatchStream } from "./watch-stream.js";

export interface WatchSettings {
  readonly bookmarkIntervalMs: number;
  readonly maxBufferedBytes: number;
}

export interface WatchRegistry {
  readonly hub: WatchHub;
  readonly settings: WatchSettings;
  /** Open streams, so fault controls can drop, pause or break them. */
  readonly streams: Set<OpenWatch>;
  /** Called when a watch opens (fault controls apply stalls and pauses in force). */
  onOpen?: (w: OpenWatch, path: string) => void;
}

export interface OpenWatch {
  readonly resource: ServedResource;
  readonly namespace: string | undefined;
  readonly stream: WatchStream;
}

/** One watch request, as routed. */
export interface WatchRequest {
  readonly resource: ServedResource;
  readonly namespace: string | undefined;
  readonly query: URLSearchParams;
  readonly choice: MediaChoice;
  readonly res: ServerResponse;
  /** Aborted when the client goes away; made on demand (only a streaming list that waits reads it). */
  readonly signal: AbortSignal;
}

const INITIAL_EVENTS_END = "k8s.io/initial-events-end";
/** setTimeout's largest delay; a longer timeoutSeconds is clamped to it (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The state one watch works with once its stream is open. */
interface Session {
  readonly ctx: HandlerContext;
  readonly reg: WatchRegistry;
  readonly w: WatchRequest;
  readonly opts: WatchOptions;
  readonly encoder: WatchEncoder;
  readonly stream: WatchStream;
  readonly timers: NodeJS.Timeout[];
  unregister: () => void;
  /**
   * Set for a custom resource with a conversion webhook: frames wait for the conversions of the
   * events before them, so they go out in the store's order.
   */
  queue?: Promise<void>;
}

/** Writes a frame, in order after the frames still waiting for a conversion webhook. */
function emit(s: Session, frame: () => Buffer | Promise<Buffer>): void {
  if (s.queue === undefined) {
    s.stream.write(frame() as Buffer);
    return;
  }
  s.queue = s.queue
    .then(async () => s.stream.write(await frame()))
    .catch((e: unknown) => {
      // The object cannot be shown in this version: the client sees the Status and watches again.
      if (e instanceof StatusError) s.stream.write(s.encoder.encode("ERROR", e.status));
      s.stream.end("dropped");
    });
}

/**
 * WATCH, in stages (upstream: endpoints/handlers/watch.go, fed by the watch cache):
 *
 * 1. decode: WatchOptions (watch-options.ts) and the selectors' filter, with upstream's 400s/422s;
 * 2. consistency: a streaming list from a revision not reached yet waits for it briefly;
 * 3. open: the 200 and its headers, the stream (registered for fault controls);
 * 4. refuse: a too-new streaming list (504) or a compacted resourceVersion (410) ends the stream
 *    with one ERROR event;
 * 5. register for live events, before reading the initial state: nothing runs in between, so no
 *    event can fall between the two;
 * 6. initial events: the state now as ADDED (a streaming list ends with the annotated bookmark), or
 *    the events since resourceVersion;
 * 7. live: changes with selector transitions, each presented in the requested version and framed
 *    for the content type (watch-framing.ts), bookmarks, then the timeout ends the stream.
 */
export async function serveWatch(ctx: HandlerContext, reg: WatchRegistry, w: WatchRequest): Promise<void> {
  const opts = parseWatchOptions(w.query, ctx.settings.watchList);
  const filter = buildFilter(w.resource, w.query);
  // Most watches do not wait: they are set up in the request's own turn, with no promise between.
  const wait = streamingRevisionWait(ctx, opts, w);
  const tooLarge = wait === undefined ? undefined : await wait;
  const session = openSession(ctx, reg, w, opts);
  const refused = tooLarge?.status ?? expiredStatus(ctx, opts.resourceVersion);
  if (refused) return endWithError(session, refused);
  const inScope = (obj: StoredObject | null): boolean => obj !== null && filter.matches(obj);
  const sendEvent = liveEventSender(session, inScope);
  session.unregister = reg.hub.add({ bucket: w.resource.bucket, onEvent: sendEvent });
  sendInitialEvents(session, filter.empty ? undefined : filter.matches, inScope, sendEvent);
  scheduleTimers(session);
  // Gone while the watch was set up (before the stream listened for the close).
  if (w.res.destroyed) session.stream.end("client-closed");
  // Frames written now carry the headers with them; a watch with nothing to send yet sends its 200 alone.
  else if (!session.stream.hasPending) session.stream.sendHeaders();
}

/** Stage 4: the stream's one ERROR event, then its end. */
function endWithError(s: Session, status: Status): void {
  s.stream.write(s.encoder.encode("ERROR", status));
  s.stream.end("expired");
}

/**
 * A plain watch from a revision the server has not reached just waits for it (upstream: 200 and
 * silence); a streaming list needs that state now, so it waits briefly, then fails with the 504.
 * Undefined when there is nothing to wait for.
 */
function streamingRevisionWait(
  ctx: HandlerContext,
  opts: WatchOptions,
  w: WatchRequest,
): Promise<StatusError | undefined> | undefined {
  const rv = opts.resourceVersion;
  if (rv === undefined || rv <= ctx.store.revision || opts.sendInitialEvents !== true) return undefined;
  return waitForStreamingRevision(ctx, rv, w);
}

async function waitForStreamingRevision(
  ctx: HandlerContext,
  rv: number,
  w: WatchRequest,
): Promise<StatusError | undefined> {
  try {
    // The signal is read here only: most watches never make one (WatchRequest.signal).
    await waitForRevision(ctx, rv, w.signal);
    return undefined;
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    return e;
  }
}

/** Expired: the 410 Status the stream's one ERROR event carries. */
function expiredStatus(ctx: HandlerContext, rv: number | undefined): Status | undefined {
  if (rv === undefined || rv <= 0 || rv >= ctx.store.compactedRevision) return undefined;
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: `too old resource version: ${rv} (${ctx.store.compactedRevision})`,
    reason: "Expired",
    code: 410,
  };
}

function openSession(ctx: HandlerContext, reg: WatchRegistry, w: WatchRequest, opts: WatchOptions): Session {
  // Sent with the first frames when the watch has some at once (a replay: one write, not two),
  // else flushed alone once the watch is set up (serveWatch).
  w.res.writeHead(200, {
    "Content-Type": watchContentType(w.choice),
    "Cache-Control": "no-cache, private",
    // No Transfer-Encoding: Node chunks HTTP/1.1 bodies of unknown length itself, and HTTP/2
    // forbids the header.
  });
  const timers: NodeJS.Timeout[] = [];
  const stream = new WatchStream(w.res, {
    maxBufferedBytes: reg.settings.maxBufferedBytes,
    onClose: (_reason: WatchEndReason) => {
      session.unregister();
      for (const t of timers) clearTimeout(t);
      reg.streams.delete(open);
    },
  });
  const encoder = new WatchEncoder(w.resource, w.choice);
  const session: Session = { ctx, reg, w, opts, encoder, stream, timers, unregister: () => {} };
  if (convertsByWebhook(w.resource)) session.queue = Promise.resolve();
  const open: OpenWatch = { resource: w.resource, namespace: w.namespace, stream };
  reg.streams.add(open);
  reg.onOpen?.(open, "");
  return session;
}

/** The watch event type a store event becomes for this watch's selectors, if any. */
function eventTypeFor(
  e: StoreEvent,
  inScope: (obj: StoredObject | null) => boolean,
): WatchEventType | undefined {
  if (e.type === "ADDED" || e.type === "DELETED") return inScope(e.object) ? e.type : undefined;
  const was = inScope(e.prev);
  const is = inScope(e.object);
  if (!was && !is) return undefined;
  return was && is ? "MODIFIED" : is ? "ADDED" : "DELETED";
}

/** What a store event shows this watch: an object leaving the selector, its last matching state at this revision. */
function eventObject(type: WatchEventType, e: StoreEvent): StoredObject {
  if (type !== "DELETED" || e.type !== "MODIFIED" || e.prev === null) return e.object;
  return { ...e.prev, metadata: { ...e.prev.metadata, resourceVersion: String(e.rev) } };
}

/** The frame cache's keys of this watch's representation, one per event type. */
function frameKeys(apiVersion: string, share: string): Record<WatchEventType, string> {
  const key = (type: WatchEventType) => `${type}|${apiVersion}|${share}`;
  return {
    ADDED: key("ADDED"),
    MODIFIED: key("MODIFIED"),
    DELETED: key("DELETED"),
    BOOKMARK: key("BOOKMARK"),
    ERROR: key("ERROR"),
  };
}

/**
 * The frame a store event makes for this watch, if it shows it (the hub's cache when the
 * representation is shared). It runs once per watcher per event (a thousand watchers: a thousand
 * calls per write), so it makes nothing per call unless its frame is not cached: no closures, no
 * key strings. Not for a watch whose frames wait for a conversion webhook (`emit`).
 */
function eventFramer(
  s: Session,
  inScope: (obj: StoredObject | null) => boolean,
): (e: StoreEvent) => Buffer | undefined {
  const r = s.w.resource;
  const shown = eventShown(s, inScope);
  const share = s.encoder.shareKey;
  const keys = share === undefined ? undefined : frameKeys(apiVersionOf(r), share);
  const encode = (e: StoreEvent, type: WatchEventType): Buffer => {
    const stored = eventObject(type, e);
    return s.encoder.encode(type, present(r, stored), stored);
  };
  const hub = s.reg.hub;
  return (e) => {
    const type = shown(e);
    if (type === undefined) return undefined;
    return keys === undefined ? encode(e, type) : hub.frame(e, keys[type], encode, type);
  };
}

/**
 * How this watch shows a store event (undefined: not at all): events at or before its
 * resourceVersion, outside its namespace or outside its selectors are not its own.
 */
function eventShown(
  s: Session,
  inScope: (obj: StoredObject | null) => boolean,
): (e: StoreEvent) => WatchEventType | undefined {
  const prefix = listPrefix(s.w.resource, s.w.namespace);
  const rv = s.opts.resourceVersion;
  const after = rv !== undefined && rv > 0 ? rv : 0;
  return (e) => (e.rev <= after || !e.key.startsWith(prefix) ? undefined : eventTypeFor(e, inScope));
}

/** Sends each store event this watch shows: framed at once, or in order after pending conversions. */
function liveEventSender(
  s: Session,
  inScope: (obj: StoredObject | null) => boolean,
): (e: StoreEvent) => void {
  if (s.queue === undefined) {
    const frameOf = eventFramer(s, inScope);
    return (e) => {
      const frame = frameOf(e);
      if (frame !== undefined) s.stream.write(frame);
    };
  }
  const r = s.w.resource;
  const shown = eventShown(s, inScope);
  return (e) => {
    const type = shown(e);
    if (type === undefined) return;
    emit(s, async () => s.encoder.encode(type, await presentOne(r, eventObject(type, e))));
  };
}

/**
 * The events since `rv` (stage 6). A watch whose frames are shared writes the replay's frames
 * joined, made once for every watch with the same query from the same revision (replay-frames.ts).
 */
function replaySince(
  s: Session,
  rv: number,
  inScope: (obj: StoredObject | null) => boolean,
  sendEvent: (e: StoreEvent) => void,
): void {
  const { ctx, w } = s;
  const bucket = w.resource.bucket;
  const share = s.encoder.shareKey;
  if (s.queue !== undefined || share === undefined) {
    for (const e of ctx.store.eventsSince(rv)) if (e.bucket === bucket) sendEvent(e);
    return;
  }
  const q = w.query;
  const key = [
    bucket,
    listPrefix(w.resource, w.namespace),
    q.get("labelSelector") ?? "",
    q.get("fieldSelector") ?? "",
    apiVersionOf(w.resource),
    share,
    rv,
    ctx.store.revision,
  ].join("\u0000");
  const replay = s.reg.hub.replays.get(key, () =>
    joinReplay({
      events: ctx.store.eventsSince(rv),
      resource: w.resource,
      hub: s.reg.hub,
      encoder: s.encoder,
      keys: frameKeys(apiVersionOf(w.resource), share),
      shown: eventShown(s, inScope),
      objectOf: eventObject,
      labelsOnly: (q.get("fieldSelector") ?? "") === "",
    }),
  );
  s.stream.writeReplay(replay);
}

function bookmark(s: Session, annotate: boolean): void {
  const metadata: Record<string, unknown> = { resourceVersion: String(s.ctx.store.revision) };
  if (annotate) metadata.annotations = { [INITIAL_EVENTS_END]: "true" };
  const r = s.w.resource;
  emit(s, () => s.encoder.encode("BOOKMARK", { kind: r.kind, apiVersion: apiVersionOf(r), metadata }));
}

function sendInitialEvents(
  s: Session,
  filter: ((obj: StoredObject) => boolean) | undefined,
  inScope: (obj: StoredObject | null) => boolean,
  sendEvent: (e: StoreEvent) => void,
): void {
  const { opts, w, ctx } = s;
  const rv = opts.resourceVersion;
  const initial =
    opts.sendInitialEvents === true ||
    (opts.sendInitialEvents === undefined && (rv === undefined || rv === 0));
  if (initial) {
    const prefix = listPrefix(w.resource, w.namespace);
    const items = ctx.store.list(w.resource.bucket, { prefix, filter } as Parameters<
      typeof ctx.store.list
    >[1]).items;
    if (s.queue !== undefined) {
      // One conversion call for the whole initial state, as a list is converted.
      const all = Promise.resolve(presentAll(w.resource, items));
      all.catch(() => {}); // handled by the first frame that waits for it
      for (let i = 0; i < items.length; i++) emit(s, async () => s.encoder.encode("ADDED", (await all)[i]));
    } else for (const obj of items) s.stream.write(s.encoder.encode("ADDED", present(w.resource, obj), obj));
    if (opts.sendInitialEvents === true && opts.allowBookmarks) bookmark(s, true);
  } else if (rv !== undefined && rv > 0) replaySince(s, rv, inScope, sendEvent);
}

function scheduleTimers(s: Session): void {
  const timeoutMs = Math.min(s.opts.timeoutSeconds * 1000, MAX_TIMER_MS);
  s.timers.push(setTimeout(() => s.stream.end("timeout"), timeoutMs));
  if (s.opts.allowBookmarks) {
    s.timers.push(setInterval(() => bookmark(s, false), s.reg.settings.bookmarkIntervalMs));
    const lead = Math.min(2000, timeoutMs / 2);
    s.timers.push(setTimeout(() => bookmark(s, false), timeoutMs - lead));
  }
  for (const t of s.timers) t.unref?.();
}
