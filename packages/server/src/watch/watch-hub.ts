/**
 * WatchHub: fans store events out to every open watch. It subscribes to the
 * store once, routes each event to the watchers of its bucket, and caches each
 * event's encoded frame per representation, so a thousand watchers of one
 * resource cost one encoding per event, not a thousand.
 *
 * The cache holds the frames of the most recent events, up to FRAME_CACHE_BYTES: a live
 * event is read by every watcher while it is fanned out, and a watch that starts from a
 * resourceVersion replays recent history one watch at a time, so the next watch from the
 * same place finds those frames still encoded. A cache as long as the store's history
 * (five minutes) would keep every frame alive that long; this one is bounded by size.
 */
import { FifoQueue } from "../api/fifo-queue.js";
import type { MvccStore, StoreEvent } from "../storage/mvcc.js";
import { FrameLog } from "./frame-log.js";
import { ReplayCache } from "./replay-frames.js";

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

/** A registered watcher: gets every event of its bucket, decides itself what to send. */
export interface HubWatcher {
  readonly bucket: string;
  onEvent(event: StoreEvent): void;
}

/** What the frames of recent events may hold; the oldest event's frames go first. */
export const FRAME_CACHE_BYTES = 8 * 2 ** 20;

export class WatchHub {
  private readonly byBucket = new Map<string, Set<HubWatcher>>();
  /**
   * Frames by event revision (one event per revision) and representation key, in the order the
   * events were first encoded; keyed by revision so the cache keeps no event's object alive.
   */
  private readonly recent = new Map<number, Map<string, Buffer>>();
  private recentBytes = 0;
  /**
   * The revisions of `recent` in the same order: what evict drops next. Not the Map's own order
   * (api/fifo-queue.ts): a full cache evicts on every new frame, so a replay of thousands of events
   * spent more time skipping the Map's holes than encoding.
   */
  private readonly order = new FifoQueue<number>();
  /** The last event asked for and its frames: a live fan-out asks for the same one N times. */
  private framesOf: StoreEvent | undefined;
  private frames: Map<string, Buffer> | undefined;
  private readonly unsubscribe: () => void;
  /** Recent writes' JSON frames as bytes, for replays (frame-log.ts). */
  readonly log = new FrameLog();
  /** The last replay's frames joined, until the next event (replay-frames.ts). */
  readonly replays = new ReplayCache(FRAME_CACHE_BYTES);
  /** Frames encoded so far (one per event and representation, however many watchers). */
  encodedFrames = 0;

  constructor(store: MvccStore) {
    this.unsubscribe = store.subscribe((e) => this.dispatch(e));
  }

  add(w: HubWatcher): () => void {
    let set = this.byBucket.get(w.bucket);
    if (!set) {
      set = new Set();
      this.byBucket.set(w.bucket, set);
    }
    set.add(w);
    return () => {
      set.delete(w);
    };
  }

  /** Bytes of frames the cache holds now (at most FRAME_CACHE_BYTES, plus the current event's). */
  get cachedFrameBytes(): number {
    return this.recentBytes;
  }

  /** Number of open watchers (all buckets). */
  get size(): number {
    let n = 0;
    for (const s of this.byBucket.values()) n += s.size;
    return n;
  }

  /** The frame for `event` in one representation, encoded at most once. */
  frame<A>(event: StoreEvent, key: string, encode: (event: StoreEvent, arg: A) => Buffer, arg: A): Buffer {
    let frames = this.frames;
    if (this.framesOf !== event || frames === undefined) {
      frames = this.recent.get(event.rev);
      if (frames === undefined) {
        frames = new Map();
        this.recent.set(event.rev, frames);
        this.order.push(event.rev);
      }
      this.framesOf = event;
      this.frames = frames;
    }
    let f = frames.get(key);
    if (f === undefined) {
      f = encode(event, arg);
      this.encodedFrames++;
      frames.set(key, f);
      this.recentBytes += f.length;
      if (this.recentBytes > FRAME_CACHE_BYTES) this.evict();
    }
    return f;
  }

  /** The frame of the event at `rev` in one representation, if it is cached (encodes nothing). */
  cachedFrame(rev: number, key: string): Buffer | undefined {
    return this.recent.get(rev)?.get(key);
  }

  watchers(): HubWatcher[] {
    return [...this.byBucket.values()].flatMap((s) => [...s]);
  }

  close(): void {
    this.unsubscribe();
    this.byBucket.clear();
    this.framesOf = undefined;
    this.frames = undefined;
    this.recent.clear();
    this.recentBytes = 0;
    this.order.clear();
    this.replays.clear();
    this.log.clear();
  }

  /** Drops the oldest events' frames until the cache fits, keeping the current event's. */
  private evict(): void {
    const current = this.framesOf?.rev;
    let kept = false;
    while (this.recentBytes > FRAME_CACHE_BYTES && this.order.size > 0) {
      const rev = this.order.shift() as number;
      const frames = this.recent.get(rev);
      if (frames === undefined) continue;
      if (rev === current) {
        kept = true;
        continue;
      }
      for (const f of frames.values()) this.recentBytes -= f.length;
      this.recent.delete(rev);
    }
    // The current event stays the oldest left.
    if (kept) this.order.unshift(current as number);
  }

  private dispatch(e: StoreEvent): void {
    this.replays.clear();
    this.log.append(e);
    const set = this.byBucket.get(e.bucket);
    if (!set) return;
    for (const w of set) w.onEvent(e);
  }
}
