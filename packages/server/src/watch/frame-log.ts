/**
 * The JSON watch frames of recent writes, as bytes, appended as each write is dispatched (the
 * hub's store listener, so on the write path, which a fresh server has warmed by its first
 * replay). A replay to a plain JSON watch then hands the socket runs of this log as they are
 * (replay-join.ts): no encoding, no per-frame copy and no join, which a server's first replay
 * did with code that had never run before (docs/performance-history.md, session 21).
 *
 * A frame is logged only for a write whose object's text its commit kept (storage/object-text.ts),
 * with the write's own event type; it is the same bytes jsonFrame makes of that object. Chunks
 * are never written again once full, and dropped whole, oldest first: a replay still being sent
 * keeps its chunks alive by its views, and nothing overwrites them.
 */
import type { StoreEvent } from "../storage/mvcc.js";
import { committedText } from "../storage/object-text.js";
import { LabelGroups } from "./label-groups.js";

/** A JSON watch frame's text before and after its object's text (watch-framing.ts's jsonFrame, and the log's). */
export const jsonHeadText = (type: string) => `{"type":${JSON.stringify(type)},"object":`;
export const JSON_TAIL_TEXT = "}\n";

/** jsonHeadText and the tail as bytes, per event type. */
const jsonHeads = new Map<string, Buffer>();
export const JSON_TAIL: Buffer = Buffer.from(JSON_TAIL_TEXT);

export function jsonHead(type: string): Buffer {
  let head = jsonHeads.get(type);
  if (head === undefined) {
    head = Buffer.from(jsonHeadText(type));
    jsonHeads.set(type, head);
  }
  return head;
}

/** Bytes of one chunk (a larger frame gets a chunk of its own size). */
const CHUNK_BYTES = 1 << 20;
/** History the log keeps at least, besides the chunk being filled: 5,000 of the bench's ConfigMaps fit. */
export const FRAME_LOG_BYTES = 4 << 20;

/**
 * A chunk's frames, back to back from its start: frame i is the write at revs[i], ends at ends[i],
 * its text starts heads[i] in, and a watch filtering by labels judges it as the others of its
 * group, groups[i] (label-groups.ts; NO_GROUP: judged alone).
 */
export interface LoggedFrames {
  readonly buf: Buffer;
  readonly revs: readonly number[];
  readonly ends: readonly number[];
  readonly groups: readonly number[];
}

class Chunk implements LoggedFrames {
  used = 0;
  readonly revs: number[] = [];
  readonly ends: number[] = [];
  readonly heads: number[] = [];
  readonly groups: number[] = [];
  constructor(readonly buf: Buffer) {}
}

const NO_FRAMES = new Chunk(JSON_TAIL);

export class FrameLog {
  private chunks: Chunk[] = [];
  private bytes = 0;
  private readonly groups = new LabelGroups();

  /** Logs the frame of a write whose text was kept (anything else is not logged). */
  append(e: StoreEvent): void {
    const known = committedText(e.object);
    if (known === undefined) return;
    const head = jsonHead(e.type);
    const size = head.length + known.bytes + JSON_TAIL.length;
    let c = this.chunks[this.chunks.length - 1];
    if (c === undefined || c.buf.length - c.used < size) c = this.addChunk(size);
    const buf = c.buf;
    let at = c.used;
    buf.set(head, at);
    at += head.length;
    at += buf.write(known.text, at);
    buf.set(JSON_TAIL, at);
    at += JSON_TAIL.length;
    c.revs.push(e.rev);
    c.ends.push(at);
    c.heads.push(head.length);
    c.groups.push(this.groups.groupOf(e));
    c.used = at;
  }

  /** A reader of the log for revisions asked in increasing order (one replay's walk). */
  cursor(): FrameLogCursor {
    return new FrameLogCursor(this.chunks);
  }

  /** Bytes of the chunks held. */
  get heldBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.chunks = [];
    this.bytes = 0;
    this.groups.clear();
  }

  private addChunk(size: number): Chunk {
    const c = new Chunk(Buffer.allocUnsafe(Math.max(CHUNK_BYTES, size)));
    this.chunks.push(c);
    this.bytes += c.buf.length;
    // Oldest first, while the older chunks alone still hold the budget.
    while (
      this.chunks.length > 1 &&
      this.bytes - (this.chunks[0] as Chunk).buf.length >= FRAME_LOG_BYTES + c.buf.length
    )
      this.bytes -= (this.chunks.shift() as Chunk).buf.length;
    return c;
  }
}

/**
 * Where the last `seek` found its frame: bytes [start, end) of `buf`, its object's text from
 * `text` on (before it, the head of the write's own event type).
 */
export class FrameLogCursor {
  buf: Buffer = JSON_TAIL;
  start = 0;
  text = 0;
  end = 0;
  /** The chunk of the last frame found, and the frame's index in it. */
  frames: LoggedFrames = NO_FRAMES;
  at = 0;
  private c = 0;
  private i = 0;

  constructor(private readonly chunks: readonly Chunk[]) {}

  /** Moves to the frame of the write at `rev`; false when the log has none. Revisions only increase. */
  seek(rev: number): boolean {
    const chunks = this.chunks;
    while (this.c < chunks.length) {
      const c = chunks[this.c] as Chunk;
      const revs = c.revs;
      if (revs.length === 0 || (revs[revs.length - 1] as number) < rev) {
        this.c++;
        this.i = 0;
        continue;
      }
      // Consecutive seeks are mostly the next frame; the first of a replay searches.
      let i = this.i;
      if ((revs[i] as number) < rev) i = (revs[i + 1] as number) >= rev ? i + 1 : firstAtLeast(revs, rev, i);
      this.i = i;
      if (revs[i] !== rev) return false;
      this.frames = c;
      this.at = i;
      this.buf = c.buf;
      this.start = i === 0 ? 0 : (c.ends[i - 1] as number);
      this.text = this.start + (c.heads[i] as number);
      this.end = c.ends[i] as number;
      return true;
    }
    return false;
  }
}

/** The first index from `lo` whose revision is at least `rev` (one exists). */
function firstAtLeast(revs: readonly number[], rev: number, lo: number): number {
  let hi = revs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((revs[mid] as number) < rev) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
