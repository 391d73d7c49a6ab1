/**
 * WatchHub: fans store events out to every open watch. It subscribes to the
 * store once, routes each event to the watchers of its bucket, and caches each
 * event's encoded frame per representation, so a thousand watchers of one
 * resource cost one encoding per event, not a thousand.
 *
 * The cache holds the frames of one event, the one being encoded: watchers read it
 * while the store's event is fanned out (or replayed, one watch at a time), so a
 * cache per event in the store's history would only keep frames alive for minutes.
 */
import type { MvccStore, StoreEvent } from "../storage/mvcc.js";

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

/** A registered watcher: gets every event of its bucket, decides itself what to send. */
export interface HubWatcher {
  readonly bucket: string;
  onEvent(event: StoreEvent): void;
}

export class WatchHub {
  private readonly byBucket = new Map<string, Set<HubWatcher>>();
  private framesOf: StoreEvent | undefined;
  private readonly frames = new Map<string, Buffer>();
  private readonly unsubscribe: () => void;
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

  /** Number of open watchers (all buckets). */
  get size(): number {
    let n = 0;
    for (const s of this.byBucket.values()) n += s.size;
    return n;
  }

  /** The frame for `event` in one representation, encoded at most once. */
  frame<A>(event: StoreEvent, key: string, encode: (event: StoreEvent, arg: A) => Buffer, arg: A): Buffer {
    if (this.framesOf !== event) {
      this.framesOf = event;
      this.frames.clear();
    }
    let f = this.frames.get(key);
    if (f === undefined) {
      f = encode(event, arg);
      this.encodedFrames++;
      this.frames.set(key, f);
    }
    return f;
  }

  watchers(): HubWatcher[] {
    return [...this.byBucket.values()].flatMap((s) => [...s]);
  }

  close(): void {
    this.unsubscribe();
    this.byBucket.clear();
    this.framesOf = undefined;
    this.frames.clear();
  }

  private dispatch(e: StoreEvent): void {
    const set = this.byBucket.get(e.bucket);
    if (!set) return;
    for (const w of set) w.onEvent(e);
  }
}
