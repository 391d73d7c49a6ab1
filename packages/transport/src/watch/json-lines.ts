import { EventTooLargeError } from "./errors.js";
import { asBuffer, isBlank, PendingLine } from "./framers.js";

/**
 * A complete line of a JSON watch body: decoded text, or (when the text could not be taken as is:
 * invalid UTF-8, or a stretch too large to decode at once) the line's bytes for the careful path.
 */
export type JsonLine = string | Uint8Array;

const NEWLINE = 0x0a;

// fatal: a line holding invalid UTF-8 goes the careful way and is reported there.
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Space, tab and CR only (a proxy's keep-alive newline is no event). */
function isBlankText(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/**
 * Newline-delimited JSON frames, decoded to text a chunk at a time: the complete lines of a chunk are
 * one UTF-8 decode and each line a slice of that text, instead of a byte view and a decode per line.
 * A newline byte never occurs inside a multi-byte character, so cutting at the last newline of a
 * chunk never splits one. A line spread over chunks is collected and copied once when it completes;
 * a line over `maxFrameBytes` fails as soon as that many bytes are pending.
 */
export class JsonLineSplitter {
  readonly #maxFrameBytes: number;
  readonly #pending: PendingLine;

  constructor(maxFrameBytes: number) {
    this.#maxFrameBytes = maxFrameBytes;
    this.#pending = new PendingLine(maxFrameBytes);
  }

  /** Appends the lines `chunk` completes to `out` (those before a failure stay there). */
  push(chunk: Uint8Array, out: JsonLine[]): void {
    const buf = asBuffer(chunk);
    const last = buf.lastIndexOf(NEWLINE);
    if (last === -1) {
      this.#pending.hold(buf);
      return;
    }
    let from = 0;
    if (this.#pending.bytes > 0) {
      const nl = buf.indexOf(NEWLINE);
      this.#emitBytes(this.#pending.complete(buf.subarray(0, nl)), out);
      from = nl + 1;
    }
    if (from <= last) this.#emitRegion(buf.subarray(from, last), out);
    if (last + 1 < buf.length) this.#pending.hold(buf.subarray(last + 1));
  }

  /** The bytes of an unterminated last line, if any. */
  end(): Uint8Array | undefined {
    return this.#pending.end();
  }

  /** Complete lines (newline-separated, without the final newline), decoded at once when possible. */
  #emitRegion(region: Buffer, out: JsonLine[]): void {
    // Below the limit as a whole, no line in it can be over it.
    let text: string | undefined;
    if (region.length <= this.#maxFrameBytes) {
      try {
        text = utf8.decode(region);
      } catch {
        text = undefined;
      }
    }
    if (text === undefined) {
      this.#emitLinesOfBytes(region, out);
      return;
    }
    let start = 0;
    for (let nl = text.indexOf("\n"); ; nl = text.indexOf("\n", start)) {
      const end = nl === -1 ? text.length : nl;
      if (!isBlankText(text, start, end)) out.push(text.slice(start, end));
      if (nl === -1) return;
      start = nl + 1;
    }
  }

  /** One line at a time, as bytes: the exact size check and per-line UTF-8 failures. */
  #emitLinesOfBytes(region: Buffer, out: JsonLine[]): void {
    let start = 0;
    for (let nl = region.indexOf(NEWLINE); ; nl = region.indexOf(NEWLINE, start)) {
      const end = nl === -1 ? region.length : nl;
      if (end - start > this.#maxFrameBytes)
        throw new EventTooLargeError(this.#maxFrameBytes, end - start, false);
      this.#emitBytes(region.subarray(start, end), out);
      if (nl === -1) return;
      start = nl + 1;
    }
  }

  #emitBytes(line: Buffer, out: JsonLine[]): void {
    if (isBlank(line)) return;
    try {
      out.push(utf8.decode(line));
    } catch {
      out.push(line);
    }
  }
}
