/**
 * A replay's body in HTTP/1.1 chunked framing, framed once for every watcher that writes it, in
 * chunks of one TLS record each, and the socket a watch may write it to directly.
 *
 * Why not `ServerResponse.write`: it frames every write itself (the size line, the data and a CRLF
 * as separate writes on a corked socket, uncorked on the next tick), the TLS layer then copies the
 * parts into one buffer before encrypting them, and a 16 KiB write plus its 8 framing bytes is two
 * TLS records. For a replay written to a thousand watchers that was a framing, a copy, a small
 * record and about a kilobyte of garbage per write per watcher. Framed once, every watcher writes
 * views of the same bytes straight to its socket: one buffer and one record per write, no copy.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Bytes of one written chunk, framing included: one TLS record's plaintext (2^14). */
export const WIRE_CHUNK_BYTES = 16 * 1024;
/** "3ff8\r\n", the data, "\r\n": a full chunk's framing is 8 bytes. */
const FULL_CHUNK_DATA = WIRE_CHUNK_BYTES - 8;
const FULL_CHUNK_HEAD = `${FULL_CHUNK_DATA.toString(16)}\r\n`;
const CR = 13;
const LF = 10;

/** Framed bodies by the body they frame: as long as the replay is kept or written, no longer. */
const framed = new WeakMap<Buffer, Buffer>();

/**
 * `body` as a sequence of HTTP/1.1 chunks (no terminal chunk): every chunk but the last carries
 * exactly `WIRE_CHUNK_BYTES` bytes on the wire, so a write of `WIRE_CHUNK_BYTES` from a multiple of
 * it is whole chunks.
 */
export function chunkedBody(body: Buffer): Buffer {
  let wire = framed.get(body);
  if (wire === undefined) {
    wire = frameChunks(body);
    framed.set(body, wire);
  }
  return wire;
}

function frameChunks(body: Buffer): Buffer {
  const full = Math.floor(body.length / FULL_CHUNK_DATA);
  const rest = body.length - full * FULL_CHUNK_DATA;
  const restHead = rest === 0 ? "" : `${rest.toString(16)}\r\n`;
  const size = full * WIRE_CHUNK_BYTES + (rest === 0 ? 0 : restHead.length + rest + 2);
  const wire = Buffer.allocUnsafe(size);
  let at = 0;
  const chunk = (head: string, from: number, to: number) => {
    at += wire.write(head, at, "latin1");
    at += body.copy(wire, at, from, to);
    wire[at++] = CR;
    wire[at++] = LF;
  };
  for (let i = 0; i < full; i++) chunk(FULL_CHUNK_HEAD, i * FULL_CHUNK_DATA, (i + 1) * FULL_CHUNK_DATA);
  if (rest > 0) chunk(restHead, full * FULL_CHUNK_DATA, body.length);
  return wire;
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
