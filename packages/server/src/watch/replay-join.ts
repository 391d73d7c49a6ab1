/**
 * The frames of a replay (a watch from a resourceVersion), joined as they are made (FrameJoin in
 * replay-frames.ts): a written object's plain JSON frame as a view of the frame log (frame-log.ts),
 * neighbours in the log as one view, when the log still has it; else from the text its write kept
 * (storage/object-text.ts), not cached, since it costs only a copy and a replay of thousands of
 * events would push the live events' frames out of the hub's cache; a frame the hub has cached,
 * copied; any other encoded and cached as live events are (protobuf, deletes, objects older than
 * the kept texts).
 */
import { present } from "../endpoints/handlers/context.js";
import { hasLabelValues, type LabelEquals } from "../endpoints/handlers/filter.js";
import type { ServedResource } from "../resources/served.js";
import type { StoredObject, StoreEvent } from "../storage/mvcc.js";
import { type FrameLogCursor, jsonHead } from "./frame-log.js";
import { FrameJoin, type ReplayFrames } from "./replay-frames.js";
import type { WatchEncoder } from "./watch-framing.js";
import type { WatchEventType, WatchHub } from "./watch-hub.js";

export interface ReplayInput {
  /** The store's events since the watch's resourceVersion, all buckets. */
  readonly events: readonly StoreEvent[];
  readonly resource: ServedResource;
  readonly hub: WatchHub;
  readonly encoder: WatchEncoder;
  /** The hub's frame keys of the watch's representation, per event type. */
  readonly keys: Readonly<Record<WatchEventType, string>>;
  /** How the watch shows an event of its bucket, if at all. */
  readonly shown: (e: StoreEvent) => WatchEventType | undefined;
  /** The stored object an event shows as `type`. */
  readonly objectOf: (type: WatchEventType, e: StoreEvent) => StoredObject;
  /** What `shown` decides, when the watch's selector is label equalities only (see joinInScope). */
  readonly scope: ReplayScope | undefined;
}

/** A watch's scope: the keys of its namespace, events after its resourceVersion, its labels. */
export interface ReplayScope {
  readonly prefix: string;
  readonly after: number;
  readonly labels: LabelEquals;
}

export function joinReplay(input: ReplayInput): ReplayFrames {
  const join = new FrameJoin();
  const log = input.encoder.plainJson ? input.hub.log.cursor() : undefined;
  if (log !== undefined && input.scope !== undefined) joinInScope(input, input.scope, join, log);
  else joinEach(input, join, log);
  return join.finish();
}

function joinEach(input: ReplayInput, join: FrameJoin, log: FrameLogCursor | undefined): void {
  const { resource: r, shown } = input;
  for (const e of input.events) {
    if (e.bucket !== r.bucket) continue;
    const type = shown(e);
    if (type === undefined) continue;
    // Most events of a JSON replay: the write's own frame, logged, of the object as stored.
    if (log !== undefined && type === e.type && log.seek(e.rev) && present(r, e.object) === e.object)
      join.view(log.buf, log.start, log.end);
    else joinOther(input, join, log, type, e);
  }
}

/**
 * joinEach for a watch whose selector is label equalities only (most informers' and the replay
 * rows'), with `shown` decided in this loop instead of through the watch's closures (eventShown,
 * eventTypeFor, inScope, the filter's matches in serve-watch.ts and filter.ts). A fresh server
 * runs a first replay's loop cold: each event's five calls were interpreted and then compiled by
 * V8 while the replay ran (docs/performance-history.md, session 22).
 */
function joinInScope(input: ReplayInput, scope: ReplayScope, join: FrameJoin, log: FrameLogCursor): void {
  const { events, resource: r } = input;
  const { prefix, after, labels } = scope;
  const bucket = r.bucket;
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as StoreEvent;
    if (e.bucket !== bucket || e.rev <= after || !e.key.startsWith(prefix)) continue;
    const type = typeInScope(e, labels);
    if (type === undefined) continue;
    if (type === e.type && log.seek(e.rev) && present(r, e.object) === e.object)
      join.view(log.buf, log.start, log.end);
    else joinOther(input, join, log, type, e);
  }
}

/** eventTypeFor (serve-watch.ts) with the selector's labels: how the event shows, if it does. */
function typeInScope(e: StoreEvent, labels: LabelEquals): WatchEventType | undefined {
  if (e.type !== "MODIFIED") return hasLabelValues(e.object, labels) ? e.type : undefined;
  const was = e.prev !== null && hasLabelValues(e.prev, labels);
  const is = hasLabelValues(e.object, labels);
  if (!was && !is) return undefined;
  return was && is ? "MODIFIED" : is ? "ADDED" : "DELETED";
}

/**
 * Any other event's frame: an object entering the selector, from the log under its ADDED head; the
 * hub's cached frame; the kept text; else encoded (and cached in the hub).
 */
function joinOther(
  input: ReplayInput,
  join: FrameJoin,
  log: FrameLogCursor | undefined,
  type: WatchEventType,
  e: StoreEvent,
): void {
  const { resource: r, hub, encoder, keys } = input;
  const stored = input.objectOf(type, e);
  const obj = present(r, stored);
  if (log !== undefined && stored === e.object && obj === stored && log.seek(e.rev)) {
    const text = log.buf.subarray(log.text, log.end);
    join.wrapped(jsonHead(type), text, text.length, EMPTY);
    return;
  }
  const cached = hub.cachedFrame(e.rev, keys[type]);
  if (cached !== undefined) join.bytes(cached);
  else if (!encoder.joinKept(join, type, obj))
    join.bytes(hub.frame(e, keys[type], encodeShown, { encoder, type, obj, stored }));
}

/** An event as the watch shows it, with the encoder of its representation. */
interface ShownEvent {
  readonly encoder: WatchEncoder;
  readonly type: WatchEventType;
  readonly obj: unknown;
  readonly stored: StoredObject;
}

const encodeShown = (_: StoreEvent, e: ShownEvent) => e.encoder.encode(e.type, e.obj, e.stored);

const EMPTY = Buffer.alloc(0);
