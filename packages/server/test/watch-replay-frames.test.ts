import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { FrameJoin, joinFrames, ReplayCache, replayFrameList } from "../src/watch/replay-frames.js";
import { type WatchEndReason, WatchStream } from "../src/watch/watch-stream.js";
import { FakeResponse } from "./support/fake-response.js";

function stream(maxBufferedBytes: number, backlog = 0) {
  const res = new FakeResponse();
  res.writableLength = backlog;
  const reasons: WatchEndReason[] = [];
  const s = new WatchStream(res as unknown as ServerResponse, {
    maxBufferedBytes,
    onClose: (reason) => reasons.push(reason),
  });
  return { res, s, reasons };
}

const frames = [Buffer.from("alpha\n"), Buffer.from("b\n"), Buffer.from("gamma-delta\n")];
const all = Buffer.concat(frames);

/** The same frames written one by one, then the stream ended: what the response got. */
function oneByOne(maxBufferedBytes: number, backlog: number) {
  const { res, s, reasons } = stream(maxBufferedBytes, backlog);
  for (const f of frames) s.write(f);
  s.end("timeout");
  return { writes: Buffer.concat(res.writes), destroyed: res.destroyed, reasons };
}

describe("replay frames", () => {
  it("are joined in order, each frame a view of the joined body", () => {
    const r = joinFrames(frames);
    expect(Buffer.concat(r.parts)).toEqual(all);
    expect(replayFrameList(r).map((f) => f.toString())).toEqual(frames.map((f) => f.toString()));
    expect(joinFrames([]).ends).toEqual([]);
  });

  it("are joined from wrapped texts and bytes alike, in UTF-8, each where it ends", () => {
    const join = new FrameJoin();
    const body = '{"name":"名前 ☃ 😀 \u2028"}';
    const nl = Buffer.from("\n");
    join.wrapped(Buffer.alloc(0), "ascii", 5, nl);
    join.wrapped(Buffer.from("<"), body, Buffer.byteLength(body), Buffer.from(">\n"));
    join.bytes(Buffer.from("é\n"));
    join.wrapped(Buffer.from("ü"), "☃", 3, nl);
    const expected = ["ascii\n", `<${body}>\n`, "é\n", "ü☃\n"];
    const r = join.finish();
    expect(Buffer.concat(r.parts).toString()).toBe(expected.join(""));
    expect(r.bytes).toBe(Buffer.byteLength(expected.join("")));
    expect(replayFrameList(r).map((f) => f.toString())).toEqual(expected);
    expect(new FrameJoin().finish().bytes).toBe(0);
  });

  it("are made once per key until cleared, and not kept past the bound", () => {
    const cache = new ReplayCache(100);
    let made = 0;
    const make = () => {
      made++;
      return joinFrames(frames);
    };
    const first = cache.get("k", make);
    expect(cache.get("k", make)).toBe(first);
    expect(made).toBe(1);
    cache.get("other", make);
    cache.get("k", make);
    expect(made).toBe(3);
    cache.clear();
    cache.get("k", make);
    expect(made).toBe(4);
    const small = new ReplayCache(all.length - 1);
    small.get("k", make);
    small.get("k", make);
    expect(made).toBe(6);
  });

  it("reach the response as one write with the bytes of the frames one by one, even past the bound", () => {
    for (const max of [1024, 4]) {
      const { res, s, reasons } = stream(max);
      s.writeReplay(joinFrames(frames));
      s.end("timeout");
      expect(res.writes).toHaveLength(1);
      expect(Buffer.concat(res.writes)).toEqual(all);
      expect(oneByOne(max, 0).writes).toEqual(all);
      expect(reasons).toEqual(["timeout"]);
    }
  });

  it("cut a slow reader off where frame-by-frame writes would", () => {
    // Limits around the bytes the socket still holds, and around the frames' own sizes (which do not count).
    for (const backlog of [0, 3]) {
      for (let max = 0; max <= all.length + backlog; max++) {
        const { res, s, reasons } = stream(max, backlog);
        s.writeReplay(joinFrames(frames));
        s.end("timeout");
        const expected = oneByOne(max, backlog);
        expect([Buffer.concat(res.writes), res.destroyed, reasons]).toEqual([
          expected.writes,
          expected.destroyed,
          expected.reasons,
        ]);
      }
    }
  });

  it("are held frame by frame by a paused stream and written in order on resume", () => {
    const { res, s } = stream(1024);
    s.pause();
    s.writeReplay(joinFrames(frames));
    s.flush();
    expect(res.writes).toEqual([]);
    s.resume();
    s.end("timeout");
    expect(Buffer.concat(res.writes)).toEqual(all);
  });
});
