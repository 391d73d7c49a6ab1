/**
 * A watch stream hands its frames to the response a batch at a time, the next once the response
 * has drained (watch/watch-stream.ts): a replay of thousands of events in one turn is not joined and
 * encrypted whole per watcher. The client still gets every frame, in order, byte for byte; a
 * reader that falls behind is still cut at maxBufferedBytes, bytes left waiting by an earlier turn
 * counted.
 */
import { createServer, get, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { type WatchEndReason, WatchStream } from "../src/watch/watch-stream.js";
import { FakeResponse } from "./support/fake-response.js";

function frames(count: number, size: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => Buffer.from(`${String(i).padStart(size - 1, "x")}\n`));
}

function open(res: FakeResponse, maxBufferedBytes = 8 * 1024 * 1024) {
  const reasons: WatchEndReason[] = [];
  const stream = new WatchStream(res as unknown as ServerResponse, {
    maxBufferedBytes,
    onClose: (reason) => reasons.push(reason),
  });
  return { stream, reasons };
}

describe("watch stream batches", () => {
  it("writes one batch per drain, every frame in order", async () => {
    const res = new FakeResponse(false);
    const { stream } = open(res);
    const all = frames(2000, 500);
    for (const f of all) stream.write(f);
    await nextTurn();
    expect(res.writes).toHaveLength(1);
    expect(res.writes[0]?.length).toBeLessThanOrEqual(16 * 1024);
    while (Buffer.concat(res.writes).length < 2000 * 500) {
      const before = res.writes.length;
      res.drain();
      expect(res.writes.length).toBe(before + 1);
    }
    expect(Buffer.concat(res.writes).equals(Buffer.concat(all))).toBe(true);
  });

  it("a frame larger than a batch goes in batch-sized views; a later turn hands over the rest", async () => {
    const res = new FakeResponse(false);
    const { stream } = open(res);
    const big = Buffer.alloc(100_000, 0x61);
    const [a, b] = frames(2, 100);
    stream.write(big);
    stream.write(a as Buffer);
    await nextTurn();
    expect(res.writes).toHaveLength(1);
    expect(res.writes[0]?.length).toBe(16 * 1024);
    res.drain();
    expect(res.writes).toHaveLength(2);
    stream.write(b as Buffer);
    await nextTurn();
    expect(res.writes).toHaveLength(3);
    res.drain();
    expect(res.writes).toHaveLength(3);
    expect(Buffer.concat(res.writes).equals(Buffer.concat([big, a as Buffer, b as Buffer]))).toBe(true);
  });

  it("end writes what is waiting before ending", async () => {
    const res = new FakeResponse(false);
    const { stream, reasons } = open(res);
    const all = frames(100, 500);
    for (const f of all) stream.write(f);
    await nextTurn();
    stream.end("timeout");
    expect(Buffer.concat(res.writes).equals(Buffer.concat(all))).toBe(true);
    expect(res.ended).toBe(true);
    expect(reasons).toEqual(["timeout"]);
  });

  it("a turn's own frames never cut it; a reader that does not take them is cut", async () => {
    const res = new FakeResponse(false);
    const { stream, reasons } = open(res, 64 * 1024);
    for (const f of frames(200, 500)) stream.write(f);
    await nextTurn();
    expect(res.writes).toHaveLength(1);
    stream.write(Buffer.from("{}\n"));
    await nextTurn();
    expect(reasons).toEqual([]);
    expect(res.writableLength).toBe(200 * 500 + 3);
    stream.write(Buffer.from("{}\n"));
    expect(reasons).toEqual(["slow-reader"]);
    expect(res.destroyed).toBe(true);
  });

  it("a real client reads a replay-sized burst byte for byte", async () => {
    const all = frames(5000, 300);
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const stream = new WatchStream(res, { maxBufferedBytes: 8 * 1024 * 1024, onClose: () => {} });
      for (const f of all) stream.write(f);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const body = await new Promise<Buffer>((resolve, reject) => {
        const req = get(`http://127.0.0.1:${port}/`, (res) => {
          const parts: Buffer[] = [];
          let received = 0;
          res.on("data", (chunk: Buffer) => {
            parts.push(chunk);
            received += chunk.length;
            // The stream stays open, as a watch does: the body is complete once every frame is in.
            if (received >= 5000 * 300) {
              resolve(Buffer.concat(parts));
              req.destroy();
            }
          });
          res.on("error", reject);
        }).on("error", reject);
      });
      expect(body.equals(Buffer.concat(all))).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
