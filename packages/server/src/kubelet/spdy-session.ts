/**
 * The server side of a SPDY/3.1 connection over any byte duplex (a TLS socket after an HTTP
 * upgrade, or the bytes tunnelled in WebSocket messages): streams opened by the peer are replied to
 * and handed out as Node duplexes; PINGs are answered; consumed data is acknowledged with
 * WINDOW_UPDATEs, and data sent respects the peer's windows (spdy-flow.ts). Header blocks use one
 * zlib context per direction (preset dictionary), so their (asynchronous) compression is sequenced
 * with everything else in that direction.
 */
import { EventEmitter } from "node:events";
import { Duplex } from "node:stream";
import { constants, createDeflate, createInflate, type Deflate, type Inflate } from "node:zlib";
import { SPDY3_DICTIONARY } from "./spdy-dictionary.js";
import { SendWindows } from "./spdy-flow.js";
import {
  controlFrame,
  dataFrame,
  decodeHeaderBlock,
  encodeHeaderBlock,
  FLAG_FIN,
  type Frame,
  FrameParser,
  FrameType,
  type HeaderMap,
  words,
} from "./spdy-frames.js";

const WINDOW_ACK_THRESHOLD = 32 * 1024;
const RST_CANCEL = 5;

/** Runs `input` through a zlib stream up to a sync flush, so the output is a complete block. */
function zlibStep(z: Deflate | Inflate): (input: Buffer) => Promise<Buffer> {
  const out: Buffer[] = [];
  z.on("data", (chunk: Buffer) => out.push(chunk));
  return (input) =>
    new Promise((resolve, reject) => {
      z.once("error", reject);
      z.write(input);
      z.flush(constants.Z_SYNC_FLUSH, () => {
        z.off("error", reject);
        resolve(Buffer.concat(out.splice(0)));
      });
    });
}

/** A stream the peer opened; its headers say what it carries (e.g. `streamtype`, `port`). */
export class SpdyStream extends Duplex {
  readonly id: number;
  readonly headers: HeaderMap;
  readonly #session: SpdySession;
  #unacked = 0;
  #remoteEnded = false;

  constructor(session: SpdySession, id: number, headers: HeaderMap) {
    super({ allowHalfOpen: true });
    this.#session = session;
    this.id = id;
    this.headers = headers;
  }

  /** Called by the session with data from the peer; data after the peer's FIN is dropped. */
  deliver(data: Buffer): void {
    if (this.#remoteEnded || this.destroyed) return;
    this.#unacked += data.length;
    if (this.#unacked >= WINDOW_ACK_THRESHOLD) {
      this.#session.acknowledge(this.id, this.#unacked);
      this.#unacked = 0;
    }
    if (!this.push(data)) this.#session.pauseInput();
  }

  /** The peer half-closed (FIN). */
  remoteEnd(): void {
    if (this.#remoteEnded) return;
    this.#remoteEnded = true;
    this.push(null);
  }

  override _read(): void {
    this.#session.resumeInput();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#session.writeData(this.id, 0, chunk, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#session.writeData(this.id, FLAG_FIN, Buffer.alloc(0), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#session.forget(this, !(this.writableFinished && this.readableEnded));
    callback(error);
  }
}

export class SpdySession extends EventEmitter<{ stream: [SpdyStream]; close: [] }> {
  readonly #transport: Duplex;
  readonly #parser = new FrameParser();
  readonly #streams = new Map<number, SpdyStream>();
  readonly #inflate = zlibStep(createInflate({ dictionary: SPDY3_DICTIONARY }));
  readonly #deflate = zlibStep(createDeflate({ dictionary: SPDY3_DICTIONARY }));
  #inChain: Promise<void> = Promise.resolve();
  #inQueued = 0;
  #outChain: Promise<void> = Promise.resolve();
  #outQueued = 0;
  #paused = 0;
  #closed = false;
  #destroyed = false;
  readonly #windows = new SendWindows((id, flags, chunk, done) =>
    this.#write(dataFrame(id, flags, chunk), done),
  );

  constructor(transport: Duplex) {
    super();
    this.#transport = transport;
    transport.on("data", (chunk: Buffer) => this.#onBytes(chunk));
    transport.on("error", () => this.destroy());
    transport.on("close", () => this.destroy());
    transport.on("end", () => this.destroy());
  }

  get streamCount(): number {
    return this.#streams.size;
  }

  #onBytes(chunk: Buffer): void {
    let frames: Frame[];
    try {
      frames = this.#parser.push(chunk);
    } catch {
      this.destroy();
      return;
    }
    for (const frame of frames) {
      const needsHeaders =
        frame.kind === "control" && (frame.type === FrameType.SynStream || frame.type === FrameType.Headers);
      if (this.#inQueued === 0 && !needsHeaders) {
        this.#handle(frame);
        continue;
      }
      this.#inQueued++;
      this.#inChain = this.#inChain
        .then(() => (needsHeaders ? this.#handleWithHeaders(frame) : this.#handle(frame)))
        .catch(() => this.destroy())
        .finally(() => {
          this.#inQueued--;
        });
    }
  }

  async #handleWithHeaders(frame: Frame): Promise<void> {
    if (frame.kind !== "control") return;
    const offset = frame.type === FrameType.SynStream ? 10 : 4;
    const headers = decodeHeaderBlock(await this.#inflate(frame.data.subarray(offset)));
    if (frame.type !== FrameType.SynStream || this.#closed) return;
    const id = frame.data.readUInt32BE(0) & 0x7fffffff;
    const stream = new SpdyStream(this, id, headers);
    this.#streams.set(id, stream);
    this.#sendHeaders(FrameType.SynReply, 0, words(id), {});
    // A misbehaving peer or a consumer's mistake ends this stream, never the process.
    stream.on("error", () => stream.destroy());
    if (frame.flags & FLAG_FIN) stream.remoteEnd();
    this.emit("stream", stream);
  }

  #handle(frame: Frame): void {
    if (frame.kind === "data") {
      const stream = this.#streams.get(frame.streamId);
      if (stream === undefined) return;
      if (frame.data.length > 0) stream.deliver(frame.data);
      if (frame.flags & FLAG_FIN) stream.remoteEnd();
      return;
    }
    switch (frame.type) {
      case FrameType.Ping:
        // Odd ids are the client's pings: echo them. Even ids would answer pings of ours.
        if ((frame.data.readUInt32BE(0) & 1) === 1) this.#write(controlFrame(FrameType.Ping, 0, frame.data));
        return;
      case FrameType.RstStream:
        this.#streams.get(frame.data.readUInt32BE(0) & 0x7fffffff)?.destroy();
        return;
      case FrameType.GoAway:
        if (this.#streams.size === 0) this.close();
        return;
      case FrameType.Settings:
        this.#windows.settings(frame.data);
        return;
      case FrameType.WindowUpdate: {
        if (frame.data.length < 8) return;
        const id = frame.data.readUInt32BE(0) & 0x7fffffff;
        // Updates for streams that are not (or no longer) open are dropped, as the spec allows.
        if (id === 0 || this.#streams.has(id))
          this.#windows.update(id, frame.data.readUInt32BE(4) & 0x7fffffff);
        return;
      }
      default:
        return;
    }
  }

  #write(frame: Buffer, callback?: () => void): void {
    if (this.#closed) {
      callback?.();
      return;
    }
    if (this.#outQueued === 0) {
      if (this.#transport.write(frame) || callback === undefined) callback?.();
      else this.#transport.once("drain", callback);
      return;
    }
    this.#outQueued++;
    this.#outChain = this.#outChain.then(() => {
      this.#outQueued--;
      if (!this.#closed) this.#transport.write(frame);
      callback?.();
    });
  }

  #sendHeaders(type: number, flags: number, prefix: Buffer, headers: HeaderMap): void {
    const block = this.#deflate(encodeHeaderBlock(headers));
    this.#outQueued++;
    this.#outChain = this.#outChain.then(async () => {
      const compressed = await block.catch(() => undefined);
      this.#outQueued--;
      if (compressed === undefined) return this.destroy();
      if (!this.#closed)
        this.#transport.write(controlFrame(type, flags, Buffer.concat([prefix, compressed])));
    });
  }

  /**
   * Sends data in frames of at most 64 KiB as the peer's windows allow; `callback` runs once the
   * transport has taken the last of it.
   */
  writeData(id: number, flags: number, data: Buffer, callback: (error?: Error | null) => void): void {
    if (this.#closed) {
      callback(new Error("SPDY connection closed"));
      return;
    }
    this.#windows.write(id, flags, data, callback);
  }

  /** Tells the peer `bytes` of stream `id` were consumed (stream and connection windows). */
  acknowledge(id: number, bytes: number): void {
    this.#write(controlFrame(FrameType.WindowUpdate, 0, words(id, bytes)));
    this.#write(controlFrame(FrameType.WindowUpdate, 0, words(0, bytes)));
  }

  pauseInput(): void {
    this.#paused++;
    this.#transport.pause();
  }

  resumeInput(): void {
    if (this.#paused === 0) return;
    this.#paused = 0;
    this.#transport.resume();
  }

  /** Drops a stream; `reset` tells the peer with RST_STREAM (CANCEL). */
  forget(stream: SpdyStream, reset: boolean): void {
    if (this.#streams.get(stream.id) !== stream) return;
    this.#streams.delete(stream.id);
    this.#windows.close(stream.id, new Error("SPDY stream closed"));
    if (reset) this.#write(controlFrame(FrameType.RstStream, 0, words(stream.id, RST_CANCEL)));
  }

  /** Sends GOAWAY and ends the transport once what was written is flushed. */
  close(): void {
    if (this.#closed) return;
    this.#write(controlFrame(FrameType.GoAway, 0, words(0, 0)));
    this.#outChain = this.#outChain.then(() => {
      this.#closed = true;
      this.#transport.end();
    });
  }

  /** Tears the connection down at once. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#closed = true;
    this.#windows.closeAll(new Error("SPDY connection closed"));
    for (const stream of [...this.#streams.values()]) stream.destroy();
    this.#transport.destroy();
    this.emit("close");
  }
}
