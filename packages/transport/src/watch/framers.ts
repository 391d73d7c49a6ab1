import { EventTooLargeError, TruncatedStreamError } from "./errors.js";

/**
 * Splits a byte stream into frames. `push` appends complete frames to `out` (so frames found before a
 * failure in the same chunk are kept); `end` returns what is left when the stream ends.
 * Chunks are referenced, not copied, until their frame completes: callers must not reuse them.
 */
export interface Framer {
  push(chunk: Uint8Array, out: Uint8Array[]): void;
  /** The bytes of an unterminated last frame, if any; throws TruncatedStreamError when that cannot be a frame. */
  end(): Uint8Array | undefined;
}

const NEWLINE = 0x0a;

/** A Buffer view of the chunk (no copy). */
export function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** Space, tab and CR only: a blank line (a proxy's keep-alive newline) is no event. */
export function isBlank(line: Uint8Array): boolean {
  for (const b of line) {
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}

/**
 * The start of a line still waiting for its newline, collected piece by piece: it fails as soon as
 * more than `maxFrameBytes` are pending instead of buffering an unbounded line, and is copied once,
 * when it completes.
 */
export class PendingLine {
  readonly #maxFrameBytes: number;
  #parts: Buffer[] = [];
  #bytes = 0;

  constructor(maxFrameBytes: number) {
    this.#maxFrameBytes = maxFrameBytes;
  }

  get bytes(): number {
    return this.#bytes;
  }

  hold(rest: Buffer): void {
    this.#bytes += rest.length;
    if (this.#bytes > this.#maxFrameBytes)
      throw new EventTooLargeError(this.#maxFrameBytes, this.#bytes, true);
    this.#parts.push(rest);
  }

  /** The whole line once `piece` (the bytes before its newline) has arrived. */
  complete(piece: Buffer): Buffer {
    const size = this.#bytes + piece.length;
    if (size > this.#maxFrameBytes) throw new EventTooLargeError(this.#maxFrameBytes, size, false);
    const line = this.#parts.length === 0 ? piece : Buffer.concat([...this.#parts, piece], size);
    this.#parts = [];
    this.#bytes = 0;
    return line;
  }

  /** The bytes of an unterminated last line, if any (and not blank). */
  end(): Uint8Array | undefined {
    if (this.#bytes === 0) return undefined;
    const line = this.complete(Buffer.alloc(0));
    return isBlank(line) ? undefined : line;
  }
}

/**
 * Newline-delimited frames (JSON watch). Each byte is scanned once and each line copied at most once,
 * so one event of many megabytes arriving in small chunks costs linear time. Blank lines are not events
 * and are passed over (servers do not send them, but a proxy keep-alive newline must not fail a watch).
 */
export class LineFramer implements Framer {
  readonly #pending: PendingLine;

  constructor(maxFrameBytes: number) {
    this.#pending = new PendingLine(maxFrameBytes);
  }

  push(chunk: Uint8Array, out: Uint8Array[]): void {
    const buf = asBuffer(chunk);
    let start = 0;
    for (let nl = buf.indexOf(NEWLINE, start); nl !== -1; nl = buf.indexOf(NEWLINE, start)) {
      const line = this.#pending.complete(buf.subarray(start, nl));
      start = nl + 1;
      if (!isBlank(line)) out.push(line);
    }
    if (start < buf.length) this.#pending.hold(buf.subarray(start));
  }

  end(): Uint8Array | undefined {
    return this.#pending.end();
  }
}

/**
 * Frames of a 4-byte big-endian length followed by that many bytes (protobuf watch). A frame wholly
 * inside one chunk is a view; a frame spread over chunks is collected piece by piece and copied
 * once it is complete, so memory follows the bytes that arrived, never the length a header claims.
 */
export class LengthPrefixedFramer implements Framer {
  readonly #maxFrameBytes: number;
  readonly #header = new Uint8Array(4);
  #headerFilled = 0;
  /** Length of the frame being collected; undefined while reading a header. */
  #frameLength: number | undefined;
  #parts: Uint8Array[] = [];
  #frameFilled = 0;

  constructor(maxFrameBytes: number) {
    this.#maxFrameBytes = maxFrameBytes;
  }

  push(chunk: Uint8Array, out: Uint8Array[]): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.#frameLength === undefined) {
        const take = Math.min(4 - this.#headerFilled, chunk.length - i);
        this.#header.set(chunk.subarray(i, i + take), this.#headerFilled);
        this.#headerFilled += take;
        i += take;
        if (this.#headerFilled < 4) return;
        this.#headerFilled = 0;
        const length = new DataView(this.#header.buffer).getUint32(0, false);
        if (length > this.#maxFrameBytes) throw new EventTooLargeError(this.#maxFrameBytes, length, false);
        if (chunk.length - i >= length) {
          out.push(chunk.subarray(i, i + length));
          i += length;
          continue;
        }
        this.#frameLength = length;
        this.#frameFilled = 0;
      }
      const take = Math.min(this.#frameLength - this.#frameFilled, chunk.length - i);
      this.#parts.push(chunk.subarray(i, i + take));
      this.#frameFilled += take;
      i += take;
      if (this.#frameFilled === this.#frameLength) {
        out.push(Buffer.concat(this.#parts, this.#frameLength));
        this.#parts = [];
        this.#frameLength = undefined;
      }
    }
  }

  end(): undefined {
    const pending = this.#frameLength === undefined ? this.#headerFilled : 4 + this.#frameFilled;
    if (pending > 0) throw new TruncatedStreamError(pending);
    return undefined;
  }
}
