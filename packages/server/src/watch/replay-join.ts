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
}

/** An event as the watch shows it: its type, the object presented, and as stored. */
interface ShownEvent {
  readonly type: WatchEventType;
  readonly obj: unknown;
  readonly stored: StoredObject;
}

export function joinReplay(input: ReplayInput): ReplayFrames {
  const { resource: r, hub, encoder, keys, shown } = input;
  const encode = (_: StoreEvent, e: ShownEvent) => encoder.encode(e.type, e.obj, e.stored);
  const join = new FrameJoin();
  const log = encoder.plainJson ? hub.log.cursor() : undefined;
  for (const e of input.events) {
    const type = e.bucket === r.bucket ? shown(e) : undefined;
    if (type === undefined) continue;
    const stored = input.objectOf(type, e);
    if (
      log !== undefined &&
      fromLog(join, log, type, e, stored === e.object && present(r, stored) === stored)
    )
      continue;
    const cached = hub.cachedFrame(e.rev, keys[type]);
    if (cached !== undefined) {
      join.bytes(cached);
      continue;
    }
    const obj = present(r, stored);
    if (!encoder.joinKept(join, type, obj))
      join.bytes(hub.frame(e, keys[type], encode, { type, obj, stored }));
  }
  return join.finish();
}

/**
 * Adds the event's frame from the log when the watch shows the write's object as it is (`asIs`):
 * the logged frame itself for the write's own type, else its object's text under this type's head.
 */
function fromLog(
  join: FrameJoin,
  log: FrameLogCursor,
  type: WatchEventType,
  e: StoreEvent,
  asIs: boolean,
): boolean {
  if (!asIs || !log.seek(e.rev)) return false;
  if (type === e.type) join.view(log.buf, log.start, log.end);
  else {
    const text = log.buf.subarray(log.text, log.end);
    join.wrapped(jsonHead(type), text, text.length, EMPTY);
  }
  return true;
}

const EMPTY = Buffer.alloc(0);
