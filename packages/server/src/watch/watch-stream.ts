/**
 * WatchStream: one watch response body. Writes event frames in order and
 * bounds what a slow reader can make the server hold: past `maxBufferedBytes`
 * of unwritten frames the stream is cut (upstream closes a watcher whose
 * channel is full), so writers and other watchers never wait for it.
 *
 * Frames written in one turn of the event loop go out together after it (flush-queue.ts): a
 * watcher of a busy resource then gets one chunk, one TLS record and one socket write for all the
 * events of the turn instead of one each, which was most of a delivery's cost.
 *
 * A turn's frames go to the response at most `WRITE_BATCH_BYTES` at a time, the next batch once
 * the response has drained: a replay hands a stream thousands of events in one turn, and written at
 * once they were joined into one copy per stream and encrypted whole, the ciphertext held until the
 * client read it (a hundred replaying watchers: about 200 MiB of the process's peak RSS). Frames
 * waiting here are the shared cached ones, so a stream holds only references to them. The
 * slow-reader bound counts them as before: written or waiting, the same bytes.
 */
import type { ServerResponse } from "node:http";
import { type Flushable, queueFlush } from "./flush-queue.js";

/**
 * Bytes joined into one response write: one TLS record's worth. A thousand replaying watchers held
 * 30-50 MiB less at their peak than with 64 KiB batches, for the same CPU per delivery.
 */
const WRITE_BATCH_BYTES = 16 * 1024;
const EMPTY = Buffer.alloc(0);

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
  /** Where the unwritten frames start in `pending` (the ones before it are written). */
  private head = 0;
  /** A batch is written and the response has not drained yet: the next waits for "drain". */
  private draining = false;
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
      this.flush(true);
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
    // The backlog before this frame decides: one large event is fine, a reader that falls behind is not.
    if (this.res.writableLength + this.pendingBytes > this.opts.maxBufferedBytes) {
      this.destroy("slow-reader");
      return;
    }
    this.pending.push(frame);
    this.pendingBytes += frame.length;
    if (this.pending.length === 1 && !this.draining) queueFlush(this);
  }

  /**
   * Hands the pending frames to the response, a batch per write, until a write fills the
   * response's buffer; the rest follows on "drain". `all`: everything now (before an end or a
   * raw write, which must come after them).
   */
  flush(all = false): void {
    if (this.draining && !all) return;
    while (this.pending.length > 0) {
      if (this.closed) {
        this.pending = [];
        this.head = 0;
        this.pendingBytes = 0;
        return;
      }
      if (!this.res.write(this.takeBatch(all)) && !all && this.pending.length > 0) {
        this.draining = true;
        this.res.once("drain", this.onDrain);
        return;
      }
    }
  }

  private readonly onDrain = (): void => {
    this.draining = false;
    this.flush();
  };

  /** The next frames up to a batch's size (at least one frame), joined; all of them when `all`. */
  private takeBatch(all: boolean): Buffer {
    const frames = this.pending;
    const first = this.head;
    let end = first;
    let bytes = 0;
    while (end < frames.length) {
      const size = (frames[end] as Buffer).length;
      if (!all && end > first && bytes + size > WRITE_BATCH_BYTES) break;
      bytes += size;
      end++;
    }
    const single = end === first + 1 ? (frames[first] as Buffer) : undefined;
    const batch = single ?? Buffer.concat(frames.slice(first, end), bytes);
    if (end === frames.length) {
      this.pending = [];
      this.head = 0;
    } else {
      // Written frames leave their slots, not the array: a replay's thousands go a batch at a time.
      for (let i = first; i < end; i++) frames[i] = EMPTY;
      this.head = end;
    }
    this.pendingBytes -= bytes;
    return batch;
  }

  /** Ends the body cleanly (no final event), as upstream does on timeout. */
  end(reason: WatchEndReason): void {
    if (this.closed) return;
    this.flush(true);
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
    this.flush(true);
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
