/**
 * The watch stream reads its body in flowing mode (StreamResponse.flow): these tests drive it with a
 * response whose chunks the test pushes, to pin down order, flow control and how it ends.
 */
import { describe, expect, it } from "vitest";
import { openWatch, type WatchStream } from "../src/http/watch-stream.js";
import type { BodySink, StreamResponse, WatchEvent } from "../src/index.js";
import { isBatchedWatchStream, nextWatchBatch } from "../src/internal.js";
import { rejection } from "./helpers/rejection.js";

const line = (rv: number) =>
  `${JSON.stringify({ type: "MODIFIED", object: { kind: "ConfigMap", apiVersion: "v1", metadata: { name: "a", resourceVersion: String(rv) } } })}\n`;
const bytes = (text: string) => new TextEncoder().encode(text);

/** A watch over a pushed body; `flowCalls` records pause/resume in order. */
async function pushedWatch(): Promise<{
  watch: WatchStream<{ metadata: { resourceVersion: string } }>;
  sink: BodySink;
  flowCalls: string[];
  closed: () => boolean;
}> {
  const flowCalls: string[] = [];
  let sink: BodySink | undefined;
  let closed = false;
  let attached: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    attached = resolve;
  });
  const response: StreamResponse = {
    status: 200,
    headers: {},
    contentType: "application/json",
    body: (async function* () {})(),
    flow(s) {
      sink = s;
      attached();
      return { pause: () => flowCalls.push("pause"), resume: () => flowCalls.push("resume") };
    },
    close: () => {
      closed = true;
    },
  };
  const watch = openWatch<{ metadata: { resourceVersion: string } }>(async () => response, {
    decoder: {},
  });
  // The stream connects on its first read.
  const first = watch.next();
  await ready;
  sink?.chunk(bytes(line(0)));
  expect((await first).value?.object.metadata.resourceVersion).toBe("0");
  return { watch, sink: sink as BodySink, flowCalls, closed: () => closed };
}

const rvs = (events: readonly WatchEvent<{ metadata: { resourceVersion: string } }>[]) =>
  events.map((e) => e.object.metadata.resourceVersion);

describe("watch stream in flowing mode", () => {
  it("pauses the body while 8 decoded chunks wait, resumes once they are read, in order", async () => {
    const { watch, sink, flowCalls } = await pushedWatch();
    for (let rv = 1; rv <= 20; rv++) sink.chunk(bytes(line(rv)));
    // Chunk 8 filled the queue; the body was paused once, not once per further chunk.
    expect(flowCalls).toEqual(["pause"]);
    const seen: WatchEvent<{ metadata: { resourceVersion: string } }>[] = [];
    if (!isBatchedWatchStream(watch)) throw new Error("the HTTP watch stream reads in batches");
    for (let i = 0; i < 20; i++) {
      const r = await watch[nextWatchBatch]();
      if (r.done) throw new Error("ended early");
      seen.push(...r.value);
    }
    expect(rvs(seen)).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));
    expect(flowCalls).toEqual(["pause", "resume"]);
    sink.end();
    expect((await watch.next()).done).toBe(true);
  });

  it("a line cut across chunks is joined; a failure comes after the events before it", async () => {
    const { watch, sink, closed } = await pushedWatch();
    const cut = line(2);
    sink.chunk(bytes(line(1) + cut.slice(0, 7)));
    sink.chunk(bytes(cut.slice(7)));
    const failure = new Error("connection reset");
    sink.fail(failure);
    expect((await watch.next()).value?.object.metadata.resourceVersion).toBe("1");
    expect((await watch.next()).value?.object.metadata.resourceVersion).toBe("2");
    expect(await rejection(watch.next())).toBe(failure);
    expect((await watch.next()).done).toBe(true);
    expect(closed()).toBe(true);
  });

  it("close() while a read waits ends it without an error, and later chunks are ignored", async () => {
    const { watch, sink, closed } = await pushedWatch();
    const waiting = watch.next();
    watch.close();
    expect(await waiting).toEqual({ done: true, value: undefined });
    sink.chunk(bytes(line(5)));
    sink.fail(new Error("aborted by close"));
    expect((await watch.next()).done).toBe(true);
    expect(closed()).toBe(true);
  });

  it("a malformed line fails the stream after the events decoded before it", async () => {
    const { watch, sink } = await pushedWatch();
    sink.chunk(bytes(`${line(1)}{"type":"MODIFIED","object":\n${line(3)}`));
    expect((await watch.next()).value?.object.metadata.resourceVersion).toBe("1");
    const err = await rejection(watch.next());
    expect((err as Error).name).toBe("MalformedEventError");
    expect((await watch.next()).done).toBe(true);
  });
});
