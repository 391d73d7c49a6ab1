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
 *
 * Pending bytes go to the response at most `WRITE_BATCH_BYTES` at a time, the next batch once the
 * response has drained: a replay hands a stream thousands of events in one turn, and written at
 * once TLS encrypted them whole per watcher and held the ciphertext until the client read it (a
 * hundred replaying watchers: about 200 MiB of the process's peak RSS). What waits here are views
 * of shared frames, not copies. A replay is one turn; live events, one turn after another, are
 * handed over each turn as before (see `flush`).
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { type ChunkedReplay, chunkedReplay, directSocket, WIRE_CHUNK_BYTES } from "./chunked-wire.js";
import { type Flushable, queueFlush } from "./flush-queue.js";
import { type ReplayFrames, replayFrameList } from "./replay-frames.js";

/**
 * Bytes in one response write: one TLS record's worth. A thousand replaying watchers held 30-50 MiB
 * less at their peak than with 64 KiB batches, for the same CPU per delivery.
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
  /** Where the unwritten bytes start: frame `head` of `pending`, `headOffset` bytes into it. */
  private head = 0;
  private headOffset = 0;
  /** A flush is queued for this turn. */
  private queued = false;
  /**
   * HTTP/1.1: a replay's body already in chunked framing (chunked-wire.ts), written from `wireAt`
   * straight to `socket`, before anything in `pending`.
   */
  private wire: ChunkedReplay | undefined;
  private wireAt = 0;
  private socket: Socket | undefined;
  /** The 200 and its headers were handed on (Node's `headersSent` is true once they are only set). */
  private headersOut = false;
  /** A batch filled the response's buffer: the next waits for "drain" (of `drainFrom`). */
  private draining = false;
  private drainFrom: ServerResponse | Socket | undefined;
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

  /** Sends the 200 and its headers now, alone (a watch with nothing to send yet). */
  sendHeaders(): void {
    this.headersOut = true;
    this.res.flushHeaders();
  }

  /** Frames of this turn wait for the flush. */
  get hasPending(): boolean {
    return this.pending.length > 0 || this.wire !== undefined;
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
      this.writeOut(true);
      const how = this.tamper;
      this.tamper = undefined;
      this.headersOut = true;
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
    this.enqueue(frame);
  }

  /**
   * A replay's frames (replay-frames.ts), as its pieces pending when that is what writing them one
   * by one would leave pending; else (a fault in force, or a reader already cut off) one by one.
   * On HTTP/1.1, when nothing else waits, the body goes out already framed (chunked-wire.ts).
   */
  writeReplay(r: ReplayFrames): void {
    if (r.ends.length === 0) return;
    const plain = !this.closed && !this.stalled && !this.paused && this.tamper === undefined;
    if (!plain || this.res.writableLength > this.opts.maxBufferedBytes) {
      for (const f of replayFrameList(r)) this.write(f);
      return;
    }
    const socket = this.pending.length === 0 && this.wire === undefined ? directSocket(this.res) : undefined;
    if (socket === undefined) {
      for (const part of r.parts) this.enqueue(part);
      return;
    }
    this.socket = socket;
    this.wire = chunkedReplay(r);
    this.wireAt = 0;
    this.queue();
  }

  private enqueue(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.queue();
  }

  private queue(): void {
    if (this.queued) return;
    this.queued = true;
    queueFlush(this);
  }

  /**
   * The turn's flush. A stream still waiting for "drain" from an earlier turn hands everything over
   * now, as before batching: the response's backlog is then what the slow-reader bound reads, so a
   * reader that stopped is cut, and a healthy one is not cut for bytes it was never offered.
   */
  flush(): void {
    this.queued = false;
    this.writeOut(this.draining);
  }

  /**
   * Hands the pending bytes to the response a batch per write until a write fills the response's
   * buffer; the rest follows on "drain". `all`: everything now (before an end or a raw write).
   */
  private writeOut(all: boolean): void {
    if (this.closed) {
      this.pending = [];
      this.head = 0;
      this.headOffset = 0;
      this.pendingBytes = 0;
      this.wire = undefined;
      return;
    }
    if (this.wire !== undefined) this.writeWire(all);
    while (this.wire === undefined && this.pending.length > 0 && (all || !this.draining)) {
      this.headersOut = true;
      if (!this.res.write(this.takeBatch(all)) && !all && this.pending.length > 0) this.waitDrain(this.res);
    }
  }

  /**
   * The framed replay, a chunk (one TLS record) per socket write until a write fills the socket's
   * buffer. The 200 and its headers, when not sent yet, go in the first write.
   */
  private writeWire(all: boolean): void {
    const framed = this.wire as ChunkedReplay;
    const wire = framed.wire;
    const socket = this.socket as Socket;
    if (socket.destroyed) {
      // The client is gone: its close ends the stream (a write now would only make an error).
      this.wire = undefined;
      return;
    }
    const headers = !this.headersOut;
    if (headers) {
      socket.cork();
      this.sendHeaders();
    }
    while (this.wireAt < wire.length && (all || !this.draining)) {
      const end = all ? wire.length : Math.min(wire.length, this.wireAt + WIRE_CHUNK_BYTES);
      framed.framedTo(end);
      const taken = socket.write(wire.subarray(this.wireAt, end));
      this.wireAt = end;
      if (!taken && !all && end < wire.length) this.waitDrain(socket);
    }
    if (headers) socket.uncork();
    if (this.wireAt === wire.length) this.wire = undefined;
  }

  private waitDrain(from: ServerResponse | Socket): void {
    this.draining = true;
    this.drainFrom = from;
    from.once("drain", this.onDrain);
  }

  private readonly onDrain = (): void => {
    this.draining = false;
    this.drainFrom = undefined;
    this.writeOut(false);
  };

  /** The next batch of pending bytes (views when it is one frame's part); everything when `all`. */
  private takeBatch(all: boolean): Buffer {
    const parts: Buffer[] = [];
    let need = all ? this.pendingBytes : WRITE_BATCH_BYTES;
    let taken = 0;
    const frames = this.pending;
    while (need > 0 && this.head < frames.length) {
      const f = frames[this.head] as Buffer;
      const n = Math.min(f.length - this.headOffset, need);
      parts.push(n === f.length ? f : f.subarray(this.headOffset, this.headOffset + n));
      this.headOffset += n;
      need -= n;
      taken += n;
      if (this.headOffset === f.length) {
        // Written frames leave their slots, not the array: a replay's thousands go a batch at a time.
        frames[this.head++] = EMPTY;
        this.headOffset = 0;
      }
    }
    if (this.head === frames.length) {
      this.pending = [];
      this.head = 0;
    }
    this.pendingBytes -= taken;
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, taken);
  }

  /** Ends the body cleanly (no final event), as upstream does on timeout. */
  end(reason: WatchEndReason): void {
    if (this.closed) return;
    this.writeOut(true);
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
    this.writeOut(true);
    this.headersOut = true;
    return this.res;
  }

  private finish(reason: WatchEndReason): void {
    if (this.closed) return;
    this.closed = true;
    // A keep-alive socket outlives its watch: it must not call back into a closed one.
    this.drainFrom?.removeListener("drain", this.onDrain);
    this.opts.onClose(reason);
  }
}

const malformedJsonLine = Buffer.from('{"type":"MODIFIED","object":{"kind":\n');
/** Length 2, then a WatchEvent whose `type` string claims 16 bytes and has none. */
const malformedProtobufFrame = Buffer.from([0, 0, 0, 2, 0x0a, 0x10]);
