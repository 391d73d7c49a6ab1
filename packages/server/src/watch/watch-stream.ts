/**
 * WatchStream: one watch response body. Writes event frames in order and
 * bounds what a slow reader can make the server hold: once the response holds
 * more than `maxBufferedBytes` the reader has not taken, its next frame cuts the
 * stream (upstream closes a watcher whose channel is full), so writers and other
 * watchers never wait for it. The frames of the current turn do not count: an
 * initial state or replay larger than the bound is written whole.
 *
 * Frames written in one turn of the event loop go out together after it (flush-queue.ts): a
 * watcher of a busy resource then gets one chunk, one TLS record and one socket write for all the
 * events of the turn instead of one each, which was most of a delivery's cost.
 */
import type { ServerResponse } from "node:http";
import { type Flushable, queueFlush } from "./flush-queue.js";
import { type ReplayFrames, replayFrame } from "./replay-frames.js";

export interface WatchStreamOptions {
  readonly maxBufferedBytes: number;
  /** Called once when the stream ends for any reason. */
  readonly onClose: (reason: WatchEndReason) => void;
}

export type WatchEndReason =
  | "timeout"
  | "client-closed"
  | "slow-reader"
  | "expired"
  | "dropped"
  | "server-stopped";

export class WatchStream implements Flushable {
  private closed = false;
  /** Frames of this turn, not yet handed to the response. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private pausedFrames: Buffer[] = [];
  private paused = false;
  private stalled = false;
  private tamper: "truncate" | "malformed" | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly opts: WatchStreamOptions,
  ) {
    res.on("close", () => this.finish("client-closed"));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Frames of this turn wait for the flush. */
  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** Holds frames instead of writing them (fault injection: pause delivery). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    const frames = this.pausedFrames;
    this.pausedFrames = [];
    for (const f of frames) this.write(f);
  }

  /** From now on nothing more is written: the client sees silence (fault injection). */
  stall(): void {
    this.stalled = true;
  }

  /**
   * Corrupts the next frame: cut it half-way and drop the connection, or replace it by one that
   * does not decode (a non-JSON line, or a protobuf frame whose WatchEvent is truncated).
   */
  tamperNext(how: "truncate" | "malformed"): void {
    this.tamper = how;
  }

  write(frame: Buffer): void {
    if (this.closed || this.stalled) return;
    if (this.tamper !== undefined && !this.paused) {
      this.flush();
      const how = this.tamper;
      this.tamper = undefined;
      if (how === "truncate") {
        // Let the half frame reach the client, then cut the connection.
        this.finish("dropped");
        this.res.write(frame.subarray(0, Math.max(1, frame.length >>> 1)), () => this.res.destroy());
        return;
      }
      // JSON lines start with "{"; a protobuf frame gets a well-framed body that does not decode.
      this.res.write(frame[0] === 0x7b ? malformedJsonLine : malformedProtobufFrame);
      return;
    }
    if (this.paused) {
      this.pausedFrames.push(frame);
      return;
    }
    // What the reader left unread decides, not this turn's frames: one large event, or an initial
    // state or replay larger than the bound, is fine; a reader that falls behind is not.
    if (this.res.writableLength > this.opts.maxBufferedBytes) {
      this.destroy("slow-reader");
      return;
    }
    this.pending.push(frame);
    this.pendingBytes += frame.length;
    if (this.pending.length === 1) queueFlush(this);
  }

  /**
   * A replay's frames (replay-frames.ts), as one pending buffer when that is what writing them one
   * by one would leave pending; else (a fault in force, or a reader already cut off) one by one.
   */
  writeReplay(r: ReplayFrames): void {
    if (r.ends.length === 0) return;
    const plain = !this.closed && !this.stalled && !this.paused && this.tamper === undefined;
    if (!plain || this.res.writableLength > this.opts.maxBufferedBytes) {
      const n = r.ends.length;
      for (let i = 0; i < n; i++) this.write(replayFrame(r, i));
      return;
    }
    this.pending.push(r.body);
    this.pendingBytes += r.body.length;
    if (this.pending.length === 1) queueFlush(this);
  }

  /** Hands the turn's frames to the response as one write. */
  flush(): void {
    const frames = this.pending;
    if (frames.length === 0) return;
    const bytes = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    if (this.closed) return;
    this.res.write(frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames, bytes));
  }

  /** Ends the body cleanly (no final event), as upstream does on timeout. */
  end(reason: WatchEndReason): void {
    if (this.closed) return;
    this.flush();
    this.finish(reason);
    this.res.end();
  }

  /** Ends the connection abruptly (fault injection, slow readers). */
  destroy(reason: WatchEndReason): void {
    if (this.closed) return;
    this.finish(reason);
    this.res.destroy();
  }

  /** Raw access for fault injection that must write partial frames (the pending ones go first). */
  get response(): ServerResponse {
    this.flush();
    return this.res;
  }

  private finish(reason: WatchEndReason): void {
    if (this.closed) return;
    this.closed = true;
    this.opts.onClose(reason);
  }
}

const malformedJsonLine = Buffer.from('{"type":"MODIFIED","object":{"kind":\n');
/** Length 2, then a WatchEvent whose `type` string claims 16 bytes and has none. */
const malformedProtobufFrame = Buffer.from([0, 0, 0, 2, 0x0a, 0x10]);
