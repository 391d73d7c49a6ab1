/**
 * The frames of one replay, joined: a watch from a resourceVersion gets every event since then
 * that its selectors and representation show, and every other watch from the same place with the
 * same query gets exactly the same bytes while no write happened in between. Many informers
 * restarting from one resourceVersion (the replay fan-out) then cost one walk of the history and
 * one join, not one each, and each watch writes one shared buffer instead of joining its own
 * (which was a copy of the whole replay per watch, and the garbage of it).
 *
 * One replay is kept, the last asked for, and only until the next store event: the hub drops it
 * on every event, so it never outlives the revision it was made at, and it is bounded like the
 * hub's frame cache.
 */

/** A replay's frames, joined in order; `ends[i]` is where frame i ends in `body`. */
export interface ReplayFrames {
  readonly body: Buffer;
  readonly ends: readonly number[];
}

/** The frames of the i-th event of a replay (views of the joined body, no copy). */
export function replayFrame(r: ReplayFrames, i: number): Buffer {
  return r.body.subarray(i === 0 ? 0 : (r.ends[i - 1] as number), r.ends[i] as number);
}

/** Joins frames, remembering where each ends. */
export function joinFrames(frames: readonly Buffer[]): ReplayFrames {
  const ends: number[] = [];
  let at = 0;
  for (const f of frames) {
    at += f.length;
    ends.push(at);
  }
  return { body: frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames, at), ends };
}

export class ReplayCache {
  private key: string | undefined;
  private frames: ReplayFrames | undefined;

  constructor(private readonly maxBytes: number) {}

  /** The replay under `key`, made by `make` unless the last one asked for had that key. */
  get(key: string, make: () => ReplayFrames): ReplayFrames {
    if (this.key === key && this.frames !== undefined) return this.frames;
    const frames = make();
    this.key = frames.body.length <= this.maxBytes ? key : undefined;
    this.frames = this.key === undefined ? undefined : frames;
    return frames;
  }

  /** A store event: every replay made so far is now short of it. */
  clear(): void {
    this.key = undefined;
    this.frames = undefined;
  }
}
