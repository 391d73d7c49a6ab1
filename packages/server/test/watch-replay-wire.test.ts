/**
 * A replay on HTTP/1.1 goes out already framed (watch/chunked-wire.ts): the body framed once in
 * chunks of one TLS record each, every watcher writing views of it straight to its socket, one
 * chunk per write and the next once the socket has drained. The client must see the same body and
 * valid chunked framing; backpressure and the keep-alive socket's listeners must be as before.
 */
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { request } from "node:https";
import { setImmediate as nextTurn } from "node:timers/promises";
import { connect } from "node:tls";
import { describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server.js";
import { chunkedReplay, WIRE_CHUNK_BYTES } from "../src/watch/chunked-wire.js";
import { joinFrames, type ReplayFrames } from "../src/watch/replay-frames.js";
import { type WatchEndReason, WatchStream } from "../src/watch/watch-stream.js";

/** Data bytes in the complete chunks of `wire` (no checks: for knowing when to stop reading). */
function chunkedDataBytes(wire: Buffer): number {
  let at = 0;
  let bytes = 0;
  for (;;) {
    const nl = wire.indexOf("\r\n", at);
    if (nl === -1) return bytes;
    const n = Number.parseInt(wire.toString("latin1", at, nl), 16);
    if (!(n > 0) || nl + 4 + n > wire.length) return bytes;
    bytes += n;
    at = nl + 4 + n;
  }
}

/** The chunks of a chunked body (no terminal chunk expected unless `terminal`): each one's data and wire size. */
function dechunk(wire: Buffer, terminal = false): { data: Buffer; sizes: number[] } {
  const parts: Buffer[] = [];
  const sizes: number[] = [];
  let at = 0;
  while (at < wire.length) {
    const nl = wire.indexOf("\r\n", at);
    expect(nl).toBeGreaterThan(at);
    const hex = wire.toString("latin1", at, nl);
    expect(hex).toMatch(/^[0-9a-f]+$/);
    const n = Number.parseInt(hex, 16);
    if (n === 0) {
      expect(terminal).toBe(true);
      expect(wire.toString("latin1", nl, nl + 4)).toBe("\r\n\r\n");
      at = nl + 4;
      break;
    }
    parts.push(wire.subarray(nl + 2, nl + 2 + n));
    expect(wire.toString("latin1", nl + 2 + n, nl + 4 + n)).toBe("\r\n");
    sizes.push(nl + 4 + n - at);
    at = nl + 4 + n;
  }
  expect(at).toBe(wire.length);
  return { data: Buffer.concat(parts), sizes };
}

/** A replay whose bytes are `body`, in parts cut at `cuts` (one frame per part: the framing ignores frames). */
function replayIn(body: Buffer, cuts: number[]): ReplayFrames {
  const at = [0, ...cuts.filter((c) => c > 0 && c < body.length), body.length];
  const parts = at.slice(1).map((end, i) => body.subarray(at[i], end));
  return { parts, ends: at.slice(1), bytes: body.length };
}

describe("chunkedReplay", () => {
  it.each([1, WIRE_CHUNK_BYTES - 9, WIRE_CHUNK_BYTES - 8, WIRE_CHUNK_BYTES - 7, 5 * WIRE_CHUNK_BYTES + 3])(
    "frames %i bytes from its parts in chunks of one record each, the last one shorter",
    (size) => {
      const body = Buffer.alloc(size);
      for (let i = 0; i < size; i++) body[i] = 0x61 + (i % 26);
      const r = replayIn(body, [7, 16_000, 16_376, 40_000]);
      const framed = chunkedReplay(r);
      // Framed as far as asked: whole chunks, the next only when a writer needs it.
      framed.framedTo(Math.min(WIRE_CHUNK_BYTES, framed.wire.length));
      framed.framedTo(framed.wire.length);
      const { data, sizes } = dechunk(framed.wire);
      expect(data.equals(body)).toBe(true);
      for (const s of sizes.slice(0, -1)) expect(s).toBe(WIRE_CHUNK_BYTES);
      expect(sizes.at(-1)).toBeLessThanOrEqual(WIRE_CHUNK_BYTES);
      // Framed once for every watcher of the same replay.
      expect(chunkedReplay(r)).toBe(framed);
    },
  );
});

/** The socket of an HTTP/1.1 response, as the stream uses it; `takes: false` fills on every write. */
class FakeSocket extends EventEmitter {
  readonly writes: Buffer[] = [];
  writable = true;
  destroyed = false;
  corked = 0;
  constructor(private readonly takes: boolean) {
    super();
  }
  write(chunk: Buffer | string): boolean {
    this.writes.push(Buffer.from(chunk));
    return this.takes;
  }
  cork(): void {
    this.corked++;
  }
  uncork(): void {
    this.corked--;
  }
}

/** An HTTP/1.1 response with a chunked body: headers go to the socket, so do Node's own writes. */
class FakeChunkedResponse extends EventEmitter {
  readonly chunkedEncoding = true;
  writableLength = 0;
  ended = false;
  constructor(readonly socket: FakeSocket) {
    super();
  }
  flushHeaders(): void {
    this.socket.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
  }
  write(chunk: Buffer): boolean {
    return this.socket.write(
      Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]),
    );
  }
  end(): void {
    this.socket.write("0\r\n\r\n");
    this.ended = true;
  }
}

function replayOf(events: number, size: number) {
  const frames = Array.from({ length: events }, (_, i) =>
    Buffer.from(`${String(i).padStart(size - 1, "x")}\n`),
  );
  return { replay: joinFrames(frames), body: Buffer.concat(frames) };
}

function open(res: FakeChunkedResponse) {
  const reasons: WatchEndReason[] = [];
  const stream = new WatchStream(res as unknown as ServerResponse, {
    maxBufferedBytes: 8 * 1024 * 1024,
    onClose: (reason) => reasons.push(reason),
  });
  return { stream, reasons };
}

describe("a replay written framed to the socket", () => {
  it("sends the headers with the first chunk, then one chunk per drain, then whatever came after", async () => {
    const socket = new FakeSocket(false);
    const res = new FakeChunkedResponse(socket);
    const { stream } = open(res);
    const { replay, body } = replayOf(400, 500);
    stream.writeReplay(replay);
    const live = Buffer.from("live\n");
    stream.write(live);
    await nextTurn();
    // The headers and the first chunk, written on a corked socket: one write reaches the TLS layer.
    expect(socket.writes).toHaveLength(2);
    expect(socket.writes[0]?.toString("latin1")).toMatch(/^HTTP\/1\.1 200/);
    expect(socket.writes[1]?.length).toBe(WIRE_CHUNK_BYTES);
    expect(socket.corked).toBe(0);
    const chunks = Math.ceil(body.length / (WIRE_CHUNK_BYTES - 8));
    for (let i = 2; i < chunks; i++) {
      socket.emit("drain");
      expect(socket.writes).toHaveLength(i + 1);
    }
    // The last chunk of the replay, and the live frame after it through the response.
    socket.emit("drain");
    expect(socket.writes).toHaveLength(chunks + 2);
    const head = socket.writes[0] as Buffer;
    const { data } = dechunk(Buffer.concat(socket.writes.slice(1)));
    expect(head.length).toBeGreaterThan(0);
    expect(data.equals(Buffer.concat([body, live]))).toBe(true);
  });

  it("end writes the rest of the replay before the terminal chunk", async () => {
    const socket = new FakeSocket(false);
    const res = new FakeChunkedResponse(socket);
    const { stream, reasons } = open(res);
    const { replay, body } = replayOf(300, 500);
    stream.writeReplay(replay);
    await nextTurn();
    stream.end("timeout");
    const { data } = dechunk(Buffer.concat(socket.writes.slice(1)), true);
    expect(data.equals(body)).toBe(true);
    expect(res.ended).toBe(true);
    expect(reasons).toEqual(["timeout"]);
  });

  it("a stream that closes while waiting for the socket leaves no listener on it (keep-alive)", async () => {
    const socket = new FakeSocket(false);
    const res = new FakeChunkedResponse(socket);
    const { stream, reasons } = open(res);
    stream.writeReplay(replayOf(300, 500).replay);
    await nextTurn();
    expect(socket.listenerCount("drain")).toBe(1);
    res.emit("close");
    expect(reasons).toEqual(["client-closed"]);
    expect(socket.listenerCount("drain")).toBe(0);
  });
});

describe("a replay over a real HTTP/1.1 connection", () => {
  let server: RunningServer;
  const path = "/api/v1/namespaces/default/configmaps";

  function call(method: string, url: string, body?: unknown): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${server.url}${url}`,
        {
          method,
          ca: server.ca,
          headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        },
      );
      req.on("error", reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  /** The head of a watch and the raw bytes after it, once `bodyBytes` of chunk data arrived. */
  function rawWatch(url: string, bodyBytes: number): Promise<{ head: string; wire: Buffer }> {
    const { hostname, port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port), ca: server.ca });
      const chunks: Buffer[] = [];
      socket.on("data", (c: Buffer) => {
        chunks.push(c);
        const all = Buffer.concat(chunks);
        const end = all.indexOf("\r\n\r\n");
        if (end === -1) return;
        const wire = all.subarray(end + 4);
        if (chunkedDataBytes(wire) < bodyBytes) return;
        socket.destroy();
        resolve({ head: all.toString("latin1", 0, end), wire });
      });
      socket.on("error", reject);
      socket.write(
        `GET ${url} HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: Bearer ${server.token}\r\n\r\n`,
      );
    });
  }

  it("carries the replay byte for byte in valid chunks", async () => {
    server = await startServer({ controllers: false, cluster: false });
    try {
      await replayTwice();
    } finally {
      await server.stop();
    }
  });

  async function replayTwice(): Promise<void> {
    const from = (JSON.parse(await call("GET", path)) as { metadata: { resourceVersion: string } }).metadata
      .resourceVersion;
    const texts: string[] = [];
    for (let i = 0; i < 80; i++) {
      const cm = {
        metadata: { name: `wire-${i}`, labels: { app: "wire" } },
        data: { v: "y".repeat(900 + i) },
      };
      texts.push((await call("POST", path, cm)).trimEnd());
    }
    const expected = Buffer.from(texts.map((t) => `{"type":"ADDED","object":${t}}\n`).join(""));
    const url = `${path}?watch=1&resourceVersion=${from}&labelSelector=app%3Dwire`;
    const [a, b] = await Promise.all([rawWatch(url, expected.length), rawWatch(url, expected.length)]);
    for (const { head, wire } of [a, b]) {
      expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(head.toLowerCase()).toContain("transfer-encoding: chunked");
      const { data, sizes } = dechunk(wire);
      expect(data.toString("utf8")).toBe(expected.toString("utf8"));
      for (const s of sizes.slice(0, -1)) expect(s).toBe(WIRE_CHUNK_BYTES);
    }
  }
});
