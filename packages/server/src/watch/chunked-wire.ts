/**
 * A replay in HTTP/1.1 chunked framing, framed once for every watcher that writes it, in chunks of
 * one TLS record each, and the socket a watch may write it to directly.
 *
 * Why not `ServerResponse.write`: it frames every write itself (the size line, the data and a CRLF
 * as separate writes on a corked socket, uncorked on the next tick), the TLS layer then copies the
 * parts into one buffer before encrypting them, and a 16 KiB write plus its 8 framing bytes is two
 * TLS records. For a replay written to a thousand watchers that was a framing, a copy, a small
 * record and about a kilobyte of garbage per write per watcher. Framed once (the one copy), every
 * watcher writes views of the same bytes straight to its socket: one buffer and one record per
 * write, nothing copied or framed per watcher.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { ReplayFrames } from "./replay-frames.js";

/** Bytes of one written chunk, framing included: one TLS record's plaintext (2^14). */
export const WIRE_CHUNK_BYTES = 16 * 1024;
/** "3ff8\r\n", the data, "\r\n": a full chunk's framing is 8 bytes. */
const FULL_CHUNK_DATA = WIRE_CHUNK_BYTES - 8;
const FULL_CHUNK_HEAD = `${FULL_CHUNK_DATA.toString(16)}\r\n`;
const CR = 13;
const LF = 10;

/**
 * A replay's frames as a sequence of HTTP/1.1 chunks (no terminal chunk): every chunk but the last
 * carries exactly `WIRE_CHUNK_BYTES` bytes on the wire, so a write of `WIRE_CHUNK_BYTES` from a
 * multiple of it is whole chunks. Framed as far as a writer has asked (`framedTo`), so the first
 * watcher's copy of each chunk comes just before its encryption, as the TLS layer's own copy did.
 */
export class ChunkedReplay {
  /** The whole framed replay; bytes past `framed` not written yet. */
  readonly wire: Buffer;
  private framed = 0;
  /** The next source byte: part `part`, `partAt` bytes into it. */
  private part = 0;
  private partAt = 0;
  private left: number;

  constructor(private readonly r: ReplayFrames) {
    this.left = r.bytes;
    const full = Math.floor(r.bytes / FULL_CHUNK_DATA);
    const rest = r.bytes - full * FULL_CHUNK_DATA;
    this.wire = Buffer.allocUnsafe(
      full * WIRE_CHUNK_BYTES + (rest === 0 ? 0 : chunkHead(rest).length + rest + 2),
    );
  }

  /** Frames the chunks up to wire byte `end` (a chunk boundary, or the end). */
  framedTo(end: number): void {
    while (this.framed < end) this.frameNext();
  }

  private frameNext(): void {
    const n = Math.min(FULL_CHUNK_DATA, this.left);
    const wire = this.wire;
    let at = this.framed;
    at += wire.write(n === FULL_CHUNK_DATA ? FULL_CHUNK_HEAD : chunkHead(n), at, "latin1");
    for (let need = n; need > 0; ) {
      const part = this.r.parts[this.part] as Buffer;
      const take = Math.min(need, part.length - this.partAt);
      at += part.copy(wire, at, this.partAt, this.partAt + take);
      need -= take;
      this.partAt += take;
      if (this.partAt === part.length) {
        this.part++;
        this.partAt = 0;
      }
    }
    wire[at++] = CR;
    wire[at++] = LF;
    this.left -= n;
    this.framed = at;
  }
}

const chunkHead = (n: number): string => `${n.toString(16)}\r\n`;

/** Framed replays by the replay they frame: shared by its watchers, kept as long as it is. */
const framed = new WeakMap<ReplayFrames, ChunkedReplay>();

export function chunkedReplay(r: ReplayFrames): ChunkedReplay {
  let c = framed.get(r);
  if (c === undefined) {
    c = new ChunkedReplay(r);
    framed.set(r, c);
  }
  return c;
}

/**
 * The socket an HTTP/1.1 response's chunked body may be written to directly: the response owns it
 * (Node assigns a pipelined response its socket only once the responses before it are done) and
 * frames its body in chunks. Undefined for HTTP/2 (its streams share one session) and for a body
 * Node does not chunk (an HTTP/1.0 request, a HEAD).
 */
export function directSocket(res: ServerResponse): Socket | undefined {
  if (res.chunkedEncoding !== true) return undefined;
  const socket = res.socket;
  return socket === null || !socket.writable ? undefined : socket;
}
