/**
 * SPDY/3.1 framing and the server session the kubelet endpoint (and the reference server's
 * kubectl port-forward tunnel) use, driven by a minimal client written here from the frame layout.
 */
import { createHash, randomBytes } from "node:crypto";
import { Duplex, PassThrough, Readable } from "node:stream";
import { constants, createDeflate, createInflate, type Deflate, type Inflate } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { SPDY3_DICTIONARY } from "../../packages/server/src/kubelet/spdy-dictionary.js";
import {
  controlFrame,
  dataFrame,
  decodeHeaderBlock,
  encodeHeaderBlock,
  FLAG_FIN,
  type Frame,
  FrameParser,
  FrameType,
  words,
} from "../../packages/server/src/kubelet/spdy-frames.js";
import { serveSpdyPortForward } from "../../packages/server/src/kubelet/spdy-port-forward.js";
import { SpdySession, type SpdyStream } from "../../packages/server/src/kubelet/spdy-session.js";
import { PodRuntime } from "../../packages/server/src/pods/runtime.js";

function zlibBlock(z: Deflate | Inflate, input: Buffer): Promise<Buffer> {
  const out: Buffer[] = [];
  const onData = (c: Buffer) => out.push(c);
  z.on("data", onData);
  z.write(input);
  return new Promise((resolve) =>
    z.flush(constants.Z_SYNC_FLUSH, () => {
      z.off("data", onData);
      resolve(Buffer.concat(out));
    }),
  );
}

/** A SPDY client over an in-memory pipe to a server session. */
function connection() {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const session = new SpdySession(Duplex.from({ readable: toServer, writable: toClient }));
  const deflate = createDeflate({ dictionary: SPDY3_DICTIONARY });
  const inflate = createInflate({ dictionary: SPDY3_DICTIONARY });
  const parser = new FrameParser();
  const frames: Frame[] = [];
  const waiters: (() => void)[] = [];
  toClient.on("data", (c: Buffer) => {
    frames.push(...parser.push(c));
    for (const w of waiters.splice(0)) w();
  });
  const next = async (match: (f: Frame) => boolean): Promise<Frame> => {
    for (;;) {
      const at = frames.findIndex(match);
      if (at >= 0) return frames.splice(at, 1)[0] as Frame;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return {
    session,
    frames,
    send: (frame: Buffer) => toServer.write(frame),
    async open(id: number, headers: Record<string, string>, flags = 0) {
      const block = await zlibBlock(deflate, encodeHeaderBlock(headers));
      toServer.write(
        controlFrame(FrameType.SynStream, flags, Buffer.concat([words(id, 0), Buffer.alloc(2), block])),
      );
    },
    next,
    async replyHeaders(frame: Frame) {
      return decodeHeaderBlock(await zlibBlock(inflate, frame.data.subarray(4)));
    },
  };
}

const nextStream = (session: SpdySession) =>
  new Promise<SpdyStream>((resolve) => session.once("stream", resolve));

describe("SPDY/3.1 frames", () => {
  it("parses frames split at every byte and several frames in one chunk", () => {
    const bytes = Buffer.concat([
      dataFrame(3, FLAG_FIN, Buffer.from("abc")),
      controlFrame(FrameType.Ping, 0, words(7)),
      dataFrame(5, 0, Buffer.alloc(0)),
    ]);
    const parser = new FrameParser();
    const split: Frame[] = [];
    for (const byte of bytes) split.push(...parser.push(Buffer.from([byte])));
    const whole = new FrameParser().push(bytes);
    for (const frames of [split, whole]) {
      expect(frames.map((f) => f.kind)).toEqual(["data", "control", "data"]);
      expect(frames[0]).toMatchObject({ streamId: 3, flags: FLAG_FIN });
      expect(frames[0]?.data.toString()).toBe("abc");
      expect(frames[1]).toMatchObject({ type: FrameType.Ping });
      expect(frames[1]?.data.readUInt32BE(0)).toBe(7);
      expect(frames[2]?.data.length).toBe(0);
    }
  });

  it("lays out control and data frame headers as the specification does", () => {
    expect(controlFrame(FrameType.Ping, 0, words(1)).toString("hex")).toBe("800300060000000400000001");
    expect(dataFrame(1, FLAG_FIN, Buffer.from("x")).toString("hex")).toBe("000000010100000178");
    expect(() => new FrameParser().push(Buffer.from("800200060000000400000001", "hex"))).toThrow(/version 2/);
  });

  it("round-trips header blocks (lower-cased names) and rejects truncated ones", () => {
    const block = encodeHeaderBlock({ StreamType: "data", port: "8080", requestID: "0" });
    expect(decodeHeaderBlock(block)).toEqual({ streamtype: "data", port: "8080", requestid: "0" });
    expect(() => decodeHeaderBlock(block.subarray(0, block.length - 1))).toThrow(/truncated/);
    expect(SPDY3_DICTIONARY.length).toBe(1423);
  });
});

describe("SPDY/3.1 server session", () => {
  it("replies to a new stream, carries data both ways and half-closes with FIN", async () => {
    const c = connection();
    const opened = nextStream(c.session);
    await c.open(1, { streamtype: "data", port: "80" });
    const stream = await opened;
    expect(stream.headers).toEqual({ streamtype: "data", port: "80" });
    const reply = await c.next((f) => f.kind === "control" && f.type === FrameType.SynReply);
    expect(reply.data.readUInt32BE(0)).toBe(1);
    expect(await c.replyHeaders(reply)).toEqual({});

    c.send(dataFrame(1, 0, Buffer.from("hello ")));
    c.send(dataFrame(1, FLAG_FIN, Buffer.from("server")));
    const received: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => received.push(chunk));
    await new Promise((resolve) => stream.once("end", resolve));
    expect(Buffer.concat(received).toString()).toBe("hello server");

    stream.end(Buffer.from("hi client"));
    const data = await c.next((f) => f.kind === "data" && f.data.length > 0);
    expect(data.data.toString()).toBe("hi client");
    const fin = await c.next((f) => f.kind === "data" && (f.flags & FLAG_FIN) !== 0);
    expect(fin).toMatchObject({ streamId: 1 });
    // A second stream's headers decode with the same (continued) zlib context.
    const second = nextStream(c.session);
    await c.open(3, { streamtype: "error", port: "80" });
    expect((await second).headers.streamtype).toBe("error");
    c.session.destroy();
  });

  it("splits large writes into 64 KiB frames and acknowledges received data", async () => {
    const c = connection();
    const opened = nextStream(c.session);
    await c.open(1, { streamtype: "stdout" });
    const stream = await opened;
    stream.write(Buffer.alloc(150 * 1024, 7));
    const sizes: number[] = [];
    while (sizes.reduce((a, b) => a + b, 0) < 150 * 1024)
      sizes.push((await c.next((f) => f.kind === "data")).data.length);
    expect(sizes).toEqual([65536, 65536, 22528]);
    stream.resume();
    c.send(dataFrame(1, 0, Buffer.alloc(40 * 1024)));
    const update = await c.next((f) => f.kind === "control" && f.type === FrameType.WindowUpdate);
    expect([update.data.readUInt32BE(0), update.data.readUInt32BE(4)]).toEqual([1, 40 * 1024]);
    c.session.destroy();
  });

  it("echoes the client's pings, resets on RST_STREAM and tears down on close", async () => {
    const c = connection();
    c.send(controlFrame(FrameType.Ping, 0, words(5)));
    const pong = await c.next((f) => f.kind === "control" && f.type === FrameType.Ping);
    expect(pong.data.readUInt32BE(0)).toBe(5);

    const opened = nextStream(c.session);
    await c.open(1, { streamtype: "stdin" });
    const stream = await opened;
    const closed = new Promise((resolve) => stream.once("close", resolve));
    c.send(controlFrame(FrameType.RstStream, 0, words(1, 5)));
    await closed;
    expect(c.session.streamCount).toBe(0);

    const ended = new Promise((resolve) => c.session.once("close", () => resolve(true)));
    c.session.destroy();
    expect(await ended).toBe(true);
  });
});

describe("SPDY/3.1 server session with a misbehaving peer", () => {
  it("drops data after FIN, frames for unknown streams and a truncated SETTINGS without failing", async () => {
    const c = connection();
    const opened = nextStream(c.session);
    await c.open(1, { streamtype: "stdin" }, FLAG_FIN);
    const stream = await opened;
    const ended = new Promise((resolve) => stream.once("end", resolve));
    stream.resume();
    c.send(dataFrame(1, 0, Buffer.from("late")));
    c.send(dataFrame(9, FLAG_FIN, Buffer.from("nobody")));
    c.send(controlFrame(FrameType.WindowUpdate, 0, words(11, 100)));
    c.send(controlFrame(FrameType.Settings, 0, words(5)));
    await ended;
    c.send(controlFrame(FrameType.Ping, 0, words(3)));
    expect(
      (await c.next((f) => f.kind === "control" && f.type === FrameType.Ping)).data.readUInt32BE(0),
    ).toBe(3);
    c.session.destroy();
  });
});

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
/** SETTINGS with INITIAL_WINDOW_SIZE (id 7). */
const initialWindow = (bytes: number) =>
  controlFrame(FrameType.Settings, 0, Buffer.concat([words(1), words(7, bytes)]));
const windowUpdate = (id: number, delta: number) => controlFrame(FrameType.WindowUpdate, 0, words(id, delta));
type Connection = ReturnType<typeof connection>;

let pingId = 1;
/** Everything the server wrote before the answer to this PING has arrived (frames are ordered). */
async function barrier(c: Connection): Promise<void> {
  pingId += 2;
  const id = pingId;
  c.send(controlFrame(FrameType.Ping, 0, words(id)));
  await c.next((f) => f.kind === "control" && f.type === FrameType.Ping && f.data.readUInt32BE(0) === id);
}

/** Takes the data frames of stream `id` received so far. */
function taken(c: Connection, id: number): Buffer {
  const mine = c.frames.filter((f) => f.kind === "data" && f.streamId === id);
  for (const f of mine) c.frames.splice(c.frames.indexOf(f), 1);
  return Buffer.concat(mine.map((f) => f.data));
}

/** Reads stream `id` until its FIN, granting back (stream and session) every data frame's size. */
async function consume(c: Connection, id: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (;;) {
    const f = await c.next((x) => x.kind === "data" && x.streamId === id);
    parts.push(f.data);
    if (f.data.length > 0)
      c.send(Buffer.concat([windowUpdate(id, f.data.length), windowUpdate(0, f.data.length)]));
    if (f.flags & FLAG_FIN) return Buffer.concat(parts);
  }
}

/** A connection whose peer announced `window` as the initial stream window, and its stream 1. */
async function windowedStream(window: number): Promise<{ c: Connection; stream: SpdyStream }> {
  const c = connection();
  c.send(initialWindow(window));
  const opened = nextStream(c.session);
  await c.open(1, { streamtype: "stdout" });
  return { c, stream: await opened };
}

describe("SPDY/3.1 send-side flow control", () => {
  it("sends no more than the stream window and the rest as the peer grants it", async () => {
    const { c, stream } = await windowedStream(1000);
    const payload = randomBytes(5000);
    let written = false;
    stream.write(payload, () => {
      written = true;
    });
    await barrier(c);
    const got = [taken(c, 1)];
    expect(got[0]?.length).toBe(1000);
    expect(written).toBe(false);
    c.send(windowUpdate(1, 1500));
    await barrier(c);
    got.push(taken(c, 1));
    expect(got[1]?.length).toBe(1500);
    c.send(windowUpdate(1, 10_000));
    await barrier(c);
    got.push(taken(c, 1));
    expect(Buffer.concat(got)).toEqual(payload);
    expect(written).toBe(true);
    c.session.destroy();
  });

  it("is limited by the session window across streams, which WINDOW_UPDATE 0 grows", async () => {
    const { c, stream } = await windowedStream(1024 * 1024);
    stream.write(Buffer.alloc(100 * 1024, 1));
    await barrier(c);
    expect(taken(c, 1).length).toBe(64 * 1024);
    c.send(windowUpdate(0, 36 * 1024));
    await barrier(c);
    expect(taken(c, 1).length).toBe(36 * 1024);
    c.session.destroy();
  });

  it("pauses a piped source while the window is used up, then delivers all of it", async () => {
    const { c, stream } = await windowedStream(16 * 1024);
    const payload = randomBytes(2 * 1024 * 1024);
    const source = Readable.from(
      Array.from({ length: 128 }, (_, i) => payload.subarray(i * 16 * 1024, (i + 1) * 16 * 1024)),
    );
    let read = 0;
    source.on("data", (chunk: Buffer) => {
      read += chunk.length;
    });
    source.pipe(stream);
    await vi.waitFor(() => expect(source.readableFlowing).toBe(false));
    await barrier(c);
    expect(taken(c, 1).length).toBe(16 * 1024);
    expect(stream.writableNeedDrain).toBe(true);
    // Paused: what was read is the window plus the writable's buffer, not the whole source.
    expect(read).toBeLessThanOrEqual(64 * 1024);
    c.send(Buffer.concat([windowUpdate(1, 16 * 1024), windowUpdate(0, 16 * 1024)]));
    const rest = await consume(c, 1);
    expect(sha(Buffer.concat([payload.subarray(0, 16 * 1024), rest]))).toBe(sha(payload));
    c.session.destroy();
  });

  it("carries a large port-forward payload both ways to a peer with a small window", async () => {
    const c = connection();
    const object = { metadata: { name: "p", namespace: "ns" }, spec: { containers: [{ name: "main" }] } };
    const runtime = new PodRuntime({ pod: () => object, now: Date.now });
    serveSpdyPortForward(runtime, c.session, { namespace: "ns", pod: "p" });
    c.send(initialWindow(32 * 1024));
    await c.open(1, { streamtype: "error", port: "80", requestid: "0" });
    await c.open(3, { streamtype: "data", port: "80", requestid: "0" });
    const payload = randomBytes(4 * 1024 * 1024);
    for (let at = 0; at < payload.length; at += 64 * 1024)
      c.send(dataFrame(3, 0, payload.subarray(at, at + 64 * 1024)));
    c.send(dataFrame(3, FLAG_FIN, Buffer.alloc(0)));
    const echoed = await consume(c, 3);
    expect(echoed.length).toBe(payload.length);
    expect(sha(echoed)).toBe(sha(payload));
    c.session.destroy();
  });
});
