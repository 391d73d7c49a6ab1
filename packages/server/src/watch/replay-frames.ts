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

/**
 * A replay's frames in order, in one or more pieces: views of the frame log (frame-log.ts) as they
 * are, and the other frames joined into buffers between them. No frame spans two pieces.
 */
export interface ReplayFrames {
  readonly parts: readonly Buffer[];
  /** Where frame i ends, counted over all the parts. */
  readonly ends: readonly number[];
  /** All the parts' bytes. */
  readonly bytes: number;
}

/** Each frame of a replay (views of its parts, no copy). */
export function replayFrameList(r: ReplayFrames): Buffer[] {
  const frames: Buffer[] = [];
  let p = 0;
  let partStart = 0;
  let at = 0;
  for (const end of r.ends) {
    let part = r.parts[p] as Buffer;
    while (at >= partStart + part.length) {
      partStart += part.length;
      part = r.parts[++p] as Buffer;
    }
    frames.push(part.subarray(at - partStart, end - partStart));
    at = end;
  }
  return frames;
}

/** Joins frames already encoded, remembering where each ends. */
export function joinFrames(frames: readonly Uint8Array[]): ReplayFrames {
  const join = new FrameJoin();
  for (const f of frames) join.bytes(f);
  return join.finish();
}

/**
 * Builds a replay's pieces. Frames of the frame log go as views of it, neighbours in the log as one
 * view. The others are joined straight from their texts and bytes: one buffer of the exact size,
 * each text encoded (UTF-8) into its place, instead of a buffer per frame and then a copy of them
 * all into the join (and the garbage of both). A JSON frame of a written object is three pieces (its
 * head, the object's text kept from its write, the tail), so its text is never concatenated either.
 */
export class FrameJoin {
  private readonly parts: Buffer[] = [];
  /** What the next joined part is made of, and its bytes. */
  private pieces: (string | Uint8Array)[] = [];
  private piecesBytes = 0;
  /** The log view being extended: bytes [runStart, runEnd) of runBuf. */
  private runBuf: Buffer | undefined;
  private runStart = 0;
  private runEnd = 0;
  private readonly ends: number[] = [];
  private at = 0;

  /** One frame as head + body + tail, where `bodyBytes` is body's UTF-8 length (known to the caller). */
  wrapped(head: Buffer, body: string | Uint8Array, bodyBytes: number, tail: Buffer): void {
    this.endRun();
    this.pieces.push(head, body, tail);
    this.piecesBytes += head.length + bodyBytes + tail.length;
    this.ended(head.length + bodyBytes + tail.length);
  }

  /** One frame already encoded. */
  bytes(frame: Uint8Array): void {
    this.endRun();
    this.pieces.push(frame);
    this.piecesBytes += frame.length;
    this.ended(frame.length);
  }

  /** One frame that is bytes [start, end) of `buf`, which no one writes again: kept as a view. */
  view(buf: Buffer, start: number, end: number): void {
    this.extendRun(buf, start, end);
    this.ended(end - start);
  }

  /**
   * Frames [from, to) of a frame log chunk whose frame i ends at ends[i] (frame-log.ts): the same
   * as `view` for each, in one call.
   */
  logFrames(buf: Buffer, ends: readonly number[], from: number, to: number): void {
    const start = from === 0 ? 0 : (ends[from - 1] as number);
    this.extendRun(buf, start, ends[to - 1] as number);
    const offset = this.at - start;
    for (let i = from; i < to; i++) this.ends.push(offset + (ends[i] as number));
    this.at = offset + (ends[to - 1] as number);
  }

  /** The frames' pieces. */
  finish(): ReplayFrames {
    this.endRun();
    this.endPieces();
    return { parts: this.parts, ends: this.ends, bytes: this.at };
  }

  private ended(bytes: number): void {
    this.at += bytes;
    this.ends.push(this.at);
  }

  /** Bytes [start, end) of buf after the run being extended: the same run if it ends at start. */
  private extendRun(buf: Buffer, start: number, end: number): void {
    if (this.runBuf !== buf || this.runEnd !== start) {
      this.endRun();
      this.endPieces();
      this.runBuf = buf;
      this.runStart = start;
    }
    this.runEnd = end;
  }

  private endRun(): void {
    if (this.runBuf === undefined) return;
    this.parts.push(this.runBuf.subarray(this.runStart, this.runEnd));
    this.runBuf = undefined;
  }

  private endPieces(): void {
    if (this.pieces.length === 0) return;
    const body = Buffer.allocUnsafe(this.piecesBytes);
    let at = 0;
    for (const p of this.pieces) {
      if (typeof p === "string") at += body.write(p, at);
      else {
        body.set(p, at);
        at += p.length;
      }
    }
    this.parts.push(body);
    this.pieces = [];
    this.piecesBytes = 0;
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
    this.key = frames.bytes <= this.maxBytes ? key : undefined;
    this.frames = this.key === undefined ? undefined : frames;
    return frames;
  }

  /** A store event: every replay made so far is now short of it. */
  clear(): void {
    this.key = undefined;
    this.frames = undefined;
  }
}
