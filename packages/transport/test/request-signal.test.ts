import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { RequestAbortedError } from "../src/index.js";
import { useHarness } from "./helpers/harness.js";
import { rejection } from "./helpers/rejection.js";
import { sendJson } from "./helpers/test-server.js";

const harness = useHarness();
const abortListeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

describe("a caller's long-lived signal shared by many requests", () => {
  it("holds one listener per request in flight and none once each is over", async () => {
    const s = await harness.serve((_seen, _req, res) => sendJson(res, 200, { kind: "Status" }));
    const t = harness.transport(s.url);
    const shared = new AbortController();
    const pending = Array.from({ length: 5 }, () =>
      t.request({ method: "GET", path: "/api" }, { signal: shared.signal }),
    );
    expect(abortListeners(shared.signal)).toBe(5);
    const done = await Promise.all(pending);
    expect(done.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(abortListeners(shared.signal)).toBe(0);
  });

  it("aborts a response whose body is half read, and leaves no listener behind", async () => {
    const s = await harness.serve((_seen, _req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"kind":"Status",');
    });
    const shared = new AbortController();
    const t = harness.transport(s.url);
    const pending = t.request({ method: "GET", path: "/api" }, { signal: shared.signal });
    await s.waitForRequests(1);
    shared.abort(new Error("informer stopped"));
    const err = await rejection(pending);
    expect(err).toBeInstanceOf(RequestAbortedError);
    expect(abortListeners(shared.signal)).toBe(0);
  });

  it("keeps a streamed response's listener until the stream is closed, then removes it", async () => {
    const s = await harness.serve((_seen, _req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a"}}}\n');
    });
    const shared = new AbortController();
    const stream = await harness
      .transport(s.url)
      .stream({ method: "GET", path: "/api/v1/pods" }, { signal: shared.signal });
    expect(abortListeners(shared.signal)).toBe(1);
    const first = await stream.body[Symbol.asyncIterator]().next();
    expect(first.done).toBe(false);
    stream.close();
    expect(abortListeners(shared.signal)).toBe(0);
    expect(shared.signal.aborted).toBe(false);
  });
});
