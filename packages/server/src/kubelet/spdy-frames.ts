/**
 * SPDY/3.1 framing (the stream multiplexing kubelets and kubectl speak for exec, attach and
 * port-forward): a control frame is `1 | version(15) | type(16) | flags(8) | length(24) | data`,
 * a data frame `0 | stream-id(31) | flags(8) | length(24) | data`. Header blocks are name/value
 * lists with 32-bit big-endian lengths; their zlib compression lives in the session, since one
 * compression context spans all frames of a connection in each direction.
 *
 * Hand-written rather than taken from npm: the SPDY packages there (spdy, spdy-transport) implement
 * HTTP over SPDY (requests with `:method`/`:path` headers, push streams, their own stream classes
 * and dependencies), while Kubernetes uses bare streams named by their own headers; the subset
 * needed here (no priorities, no server-initiated streams) is a few hundred lines.
 */

export const SPDY_VERSION = 3;
export const FLAG_FIN = 0x01;

export const FrameType = {
  SynStream: 1,
  SynReply: 2,
  RstStream: 3,
  Settings: 4,
  Ping: 6,
  GoAway: 7,
  Headers: 8,
  WindowUpdate: 9,
} as const;

export type Frame =
  | { kind: "data"; streamId: number; flags: number; data: Buffer }
  | { kind: "control"; type: number; flags: number; data: Buffer };

const HEADER_LENGTH = 8;
/** Largest frame body accepted (the 24-bit length allows 16 MiB). */
export const MAX_FRAME_BODY = 0xffffff;

/** Splits a byte stream into frames; feed it chunks, it returns the frames they complete. */
export class FrameParser {
  #buffered: Buffer[] = [];
  #length = 0;

  push(chunk: Buffer): Frame[] {
    this.#buffered.push(chunk);
    this.#length += chunk.length;
    if (this.#length < HEADER_LENGTH) return [];
    let buf = this.#buffered.length === 1 ? (this.#buffered[0] as Buffer) : Buffer.concat(this.#buffered);
    const frames: Frame[] = [];
    while (buf.length >= HEADER_LENGTH) {
      const length = buf.readUIntBE(5, 3);
      if (buf.length < HEADER_LENGTH + length) break;
      const flags = buf[4] as number;
      const data = buf.subarray(HEADER_LENGTH, HEADER_LENGTH + length);
      const first = buf.readUInt32BE(0);
      if (first & 0x80000000) {
        const version = (first >>> 16) & 0x7fff;
        if (version !== SPDY_VERSION) throw new Error(`unsupported SPDY version ${version}`);
        frames.push({ kind: "control", type: first & 0xffff, flags, data });
      } else {
        frames.push({ kind: "data", streamId: first, flags, data });
      }
      buf = buf.subarray(HEADER_LENGTH + length);
    }
    this.#buffered = buf.length > 0 ? [buf] : [];
    this.#length = buf.length;
    return frames;
  }
}

export function controlFrame(type: number, flags: number, body: Buffer): Buffer {
  const head = Buffer.alloc(HEADER_LENGTH);
  head.writeUInt32BE((0x80000000 | (SPDY_VERSION << 16) | type) >>> 0, 0);
  head[4] = flags;
  head.writeUIntBE(body.length, 5, 3);
  return Buffer.concat([head, body]);
}

export function dataFrame(streamId: number, flags: number, data: Buffer): Buffer {
  const head = Buffer.alloc(HEADER_LENGTH);
  head.writeUInt32BE(streamId & 0x7fffffff, 0);
  head[4] = flags;
  head.writeUIntBE(data.length, 5, 3);
  return Buffer.concat([head, data]);
}

/** 32-bit big-endian words, the top bit of stream ids masked by the caller. */
export function words(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => {
    b.writeUInt32BE(v >>> 0, i * 4);
  });
  return b;
}

/** Header names are lower case on the wire; several values of one name are NUL-separated. */
export type HeaderMap = Record<string, string>;

export function encodeHeaderBlock(headers: HeaderMap): Buffer {
  const entries = Object.entries(headers);
  const parts: Buffer[] = [words(entries.length)];
  for (const [name, value] of entries) {
    const n = Buffer.from(name.toLowerCase(), "utf8");
    const v = Buffer.from(value, "utf8");
    parts.push(words(n.length), n, words(v.length), v);
  }
  return Buffer.concat(parts);
}

export function decodeHeaderBlock(block: Buffer): HeaderMap {
  const headers: HeaderMap = {};
  let at = 0;
  const take = (): Buffer => {
    if (at + 4 > block.length) throw new Error("truncated SPDY header block");
    const length = block.readUInt32BE(at);
    at += 4;
    if (at + length > block.length) throw new Error("truncated SPDY header block");
    const out = block.subarray(at, at + length);
    at += length;
    return out;
  };
  if (block.length < 4) throw new Error("truncated SPDY header block");
  const count = block.readUInt32BE(0);
  at = 4;
  for (let i = 0; i < count; i++) {
    const name = take().toString("utf8").toLowerCase();
    headers[name] = take().toString("utf8");
  }
  return headers;
}
