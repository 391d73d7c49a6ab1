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

/** Joins frames already encoded, remembering where each ends. */
export function joinFrames(frames: readonly Uint8Array[]): ReplayFrames {
  const join = new FrameJoin();
  for (const f of frames) join.bytes(f);
  return join.finish();
}

/**
 * Builds a replay's joined body straight from its frames' texts and bytes: one buffer of the exact
 * size, each text encoded (UTF-8) into its place, instead of a buffer per frame and then a copy of
 * them all into the join (and the garbage of both). A JSON frame of a written object is three pieces (its
 * head, the object's text kept from its write, the tail), so its text is never concatenated either.
 */
export class FrameJoin {
  private readonly parts: (string | Uint8Array)[] = [];
  private readonly ends: number[] = [];
  private at = 0;

  /** One frame as head + body + tail, where `bodyBytes` is body's UTF-8 length (known to the caller). */
  wrapped(head: Buffer, body: string, bodyBytes: number, tail: Buffer): void {
    this.parts.push(head, body, tail);
    this.at += head.length + bodyBytes + tail.length;
    this.ends.push(this.at);
  }

  /** One frame already encoded. */
  bytes(frame: Uint8Array): void {
    this.parts.push(frame);
    this.at += frame.length;
    this.ends.push(this.at);
  }

  /** The joined frames. */
  finish(): ReplayFrames {
    const body = Buffer.allocUnsafe(this.at);
    let at = 0;
    for (const p of this.parts) {
      if (typeof p === "string") at += body.write(p, at);
      else {
        body.set(p, at);
        at += p.length;
      }
    }
    return { body, ends: this.ends };
  }
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
