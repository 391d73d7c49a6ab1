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
import type { ServedResource } from "../resources/served.js";
import type { StoredObject, StoreEvent } from "../storage/mvcc.js";
import { type FrameLogCursor, jsonHead } from "./frame-log.js";
import { FrameJoin, type ReplayFrames } from "./replay-frames.js";
import { GroupVerdicts, HIDDEN, joinStretch, PER_EVENT, SHOWN, type Verdict } from "./replay-runs.js";
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
  /** The watch's filter reads only namespace and labels (no field selector). */
  readonly labelsOnly: boolean;
}

export function joinReplay(input: ReplayInput): ReplayFrames {
  const { events, resource: r } = input;
  const join = new FrameJoin();
  const log = input.encoder.plainJson ? input.hub.log.cursor() : undefined;
  // Stretches of the log by label groups (replay-runs.ts), for a resource shown as stored.
  const byGroups = log !== undefined && input.labelsOnly && r.custom === undefined && r.convert === undefined;
  const verdicts = byGroups ? new GroupVerdicts(groupJudge(input)) : undefined;
  let k = 0;
  while (k < events.length) {
    const e = events[k] as StoreEvent;
    if (verdicts !== undefined && e.type === "ADDED" && log?.seek(e.rev)) {
      const taken = joinStretch(log, events, k, verdicts, join);
      k += taken;
      if (taken > 0) continue;
    }
    k++;
    joinEvent(input, join, log, e);
  }
  return join.finish();
}

/** One event's frame, if the watch shows it. */
function joinEvent(
  input: ReplayInput,
  join: FrameJoin,
  log: FrameLogCursor | undefined,
  e: StoreEvent,
): void {
  const r = input.resource;
  if (e.bucket !== r.bucket) return;
  const type = input.shown(e);
  if (type === undefined) return;
  // Most events of a JSON replay: the write's own frame, logged, of the object as stored.
  if (log !== undefined && type === e.type && log.seek(e.rev) && present(r, e.object) === e.object)
    join.view(log.buf, log.start, log.end);
  else joinOther(input, join, log, type, e);
}

/** How the watch shows an ADDED event of a label group: the per-event rule of joinEvent, told as a verdict. */
function groupJudge({ resource: r, shown }: ReplayInput): (e: StoreEvent) => Verdict {
  return (e) => {
    if (e.bucket !== r.bucket) return HIDDEN;
    const type = shown(e);
    if (type === undefined) return HIDDEN;
    return type === e.type && present(r, e.object) === e.object ? SHOWN : PER_EVENT;
  };
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
