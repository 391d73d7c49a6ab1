import type http from "node:http";
import { decodeObject, encodeWatchEvent } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import {
  isExpired,
  RequestAbortedError,
  TimeoutError,
  TruncatedStreamError,
  UnsupportedWatchContentTypeError,
  type WatchEvent,
} from "../src/index.js";
import { decodeProtobufWatchFrame, isBatchedWatchStream, nextWatchBatch } from "../src/internal.js";
import { useHarness } from "./helpers/harness.js";
import { rejection } from "./helpers/rejection.js";
import { sendJson, statusBody } from "./helpers/test-server.js";

const harness = useHarness();

const cm = (name: string, rv: number) => ({
  kind: "ConfigMap",
  apiVersion: "v1",
  metadata: { name, resourceVersion: String(rv) },
});
const line = (type: string, object: unknown) => `${JSON.stringify({ type, object })}\n`;

function startStream(res: http.ServerResponse, contentType = "application/json"): void {
  res.writeHead(200, { "content-type": contentType });
  res.flushHeaders();
}

const pods = { method: "GET", path: "/api/v1/namespaces/default/configmaps" } as const;

describe("watch over HTTP", () => {
  it("delivers events split across chunks and closes the connection on break", async () => {
    const s = await harness.serve((_seen, _req, res) => {
      startStream(res);
      const third = line("DELETED", cm("a", 3));
      res.write(line("ADDED", cm("a", 1)) + line("MODIFIED", cm("a", 2)) + third.slice(0, 10));
      res.write(third.slice(10));
      // The stream stays open, as a real watch does.
    });
    const watch = harness.transport(s.url).watch(pods);
    const seen: WatchEvent[] = [];
    for await (const event of watch) {
      seen.push(event);
      if (seen.length === 3) break;
    }
    expect(seen.map((e) => e.type)).toEqual(["ADDED", "MODIFIED", "DELETED"]);
    expect(seen[2]?.object).toEqual(cm("a", 3));
    await s.socketClosed(0); // resolves only when the server sees the connection close
    expect(s.requests[0]?.url).toBe("/api/v1/namespaces/default/configmaps?watch=true");
  });

  it("overlapping next() calls and batched reads get every event once, in order", async () => {
    const s = await harness.serve((_seen, _req, res) => {
      startStream(res);
      res.write(line("ADDED", cm("a", 1)) + line("MODIFIED", cm("a", 2)));
      res.write(line("MODIFIED", cm("a", 3)) + line("DELETED", cm("a", 4)));
      res.end();
    });
    const watch = harness.transport(s.url).watch(pods);
    const [first, second] = await Promise.all([watch.next(), watch.next()]);
    const rest: WatchEvent[] = [];
    if (!isBatchedWatchStream(watch)) throw new Error("the HTTP watch stream reads in batches");
    for (let r = await watch[nextWatchBatch](); !r.done; r = await watch[nextWatchBatch]())
      rest.push(...r.value);
    const rvs = [first.value, second.value, ...rest].map((e) => e?.object.metadata?.resourceVersion);
    expect(rvs).toEqual(["1", "2", "3", "4"]);
  });

  it("close() ends a watch that is waiting for bytes, without an error", async () => {
    const s = await harness.serve((_seen, _req, res) => startStream(res));
    const watch = harness.transport(s.url).watch({
      ...pods,
      query: { resourceVersion: "5", allowWatchBookmarks: true },
    });
    const pending = watch.next();
    await s.waitForRequests(1);
    watch.close();
    expect(await pending).toEqual({ done: true, value: undefined });
    await s.socketClosed(0);
    expect(s.requests[0]?.url).toBe(
      "/api/v1/namespaces/default/configmaps?resourceVersion=5&allowWatchBookmarks=true&watch=true",
    );
  });

  it("the caller's signal aborts an open watch with RequestAbortedError", async () => {
    const s = await harness.serve((_seen, _req, res) => {
      startStream(res);
      res.write(line("ADDED", cm("a", 1)));
    });
    const controller = new AbortController();
    const watch = harness.transport(s.url).watch(pods, { signal: controller.signal });
    expect((await watch.next()).value).toMatchObject({ type: "ADDED" });
    const pending = watch.next();
    controller.abort();
    expect(await rejection(pending)).toBeInstanceOf(RequestAbortedError);
    await s.socketClosed(0);
  });

  it("throws the ApiError of an ERROR event", async () => {
    const s = await harness.serve((_seen, _req, res) => {
      startStream(res);
      res.end(line("ERROR", statusBody(410, "Expired", "too old resource version: 123 (456)")));
    });
    const watch = harness.transport(s.url).watch({ ...pods, query: { resourceVersion: "123" } });
    const err = await rejection(watch.next());
    expect(isExpired(err)).toBe(true);
    expect(err).toMatchObject({ statusCode: 410, message: "too old resource version: 123 (456)" });
  });

  it("fails with IDLE_TIMEOUT when no bytes arrive for the idle timeout", async () => {
    const s = await harness.serve((_seen, _req, res) => {
      startStream(res);
      res.write(line("ADDED", cm("a", 1)));
    });
    const watch = harness.transport(s.url, { timeouts: { watchIdleMs: 150 } }).watch(pods);
    expect((await watch.next()).done).toBe(false);
    const err = await rejection(watch.next());
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ code: "IDLE_TIMEOUT", timeoutMs: 150 });
    await s.socketClosed(0);
  });

  it("ends normally when the server ends the stream, and reports a stream cut mid-event", async () => {
    const whole = await harness.serve((_seen, _req, res) => {
      startStream(res);
      res.end(
        line("ADDED", cm("a", 1)) +
          line("BOOKMARK", { kind: "ConfigMap", apiVersion: "v1", metadata: { resourceVersion: "9" } }),
      );
    });
    const events: WatchEvent[] = [];
    for await (const e of harness.transport(whole.url).watch(pods)) events.push(e);
    expect(events.map((e) => e.type)).toEqual(["ADDED", "BOOKMARK"]);

    const cut = await harness.serve((_seen, _req, res) => {
      startStream(res);
      res.end(line("ADDED", cm("a", 1)) + line("ADDED", cm("b", 2)).slice(0, 25));
    });
    const watch = harness.transport(cut.url).watch(pods);
    expect((await watch.next()).done).toBe(false);
    expect(await rejection(watch.next())).toBeInstanceOf(TruncatedStreamError);
  });

  it("retries the connect on 429 and raises HTTP errors from the first next()", async () => {
    let n = 0;
    const s = await harness.serve((_seen, _req, res) => {
      if (n++ === 0)
        return sendJson(res, 429, statusBody(429, "TooManyRequests", "x"), { "retry-after": "0" });
      startStream(res);
      res.end(line("ADDED", cm("a", 1)));
    });
    const events: WatchEvent[] = [];
    for await (const e of harness.transport(s.url).watch(pods)) events.push(e);
    expect(events).toHaveLength(1);
    expect(s.requests).toHaveLength(2);

    const gone = await harness.serve((_seen, _req, res) =>
      sendJson(res, 410, statusBody(410, "Expired", "too old")),
    );
    expect(isExpired(await rejection(harness.transport(gone.url).watch(pods).next()))).toBe(true);
  });

  it("decodes protobuf frames with the decoder it is given, including an ERROR frame's protobuf Status", async () => {
    const frame = (payload: Uint8Array) => {
      const header = Buffer.alloc(4);
      header.writeUInt32BE(payload.length);
      return Buffer.concat([header, payload]);
    };
    const expired = statusBody(410, "Expired", "too old resource version: 3 (7)");
    const s = await harness.serve((_seen, _req, res) => {
      startStream(res, "application/vnd.kubernetes.protobuf;stream=watch");
      const bytes = Buffer.concat([
        frame(encodeWatchEvent({ type: "ADDED", object: cm("a", 1) })),
        frame(encodeWatchEvent({ type: "ERROR", object: expired })),
      ]);
      // Cut inside the first frame's header and inside the ERROR frame.
      res.write(bytes.subarray(0, 2));
      res.write(bytes.subarray(2, bytes.length - 5));
      res.end(bytes.subarray(bytes.length - 5));
    });
    const events: WatchEvent[] = [];
    const error = await rejection(
      (async () => {
        const transport = harness.transport(s.url, {
          protobufWatchFrameDecoder: decodeProtobufWatchFrame,
          protobufDecoder: decodeObject,
        });
        for await (const e of transport.watch(pods)) events.push(e);
      })(),
    );
    expect(events).toEqual([{ type: "ADDED", object: cm("a", 1) }]);
    expect(isExpired(error)).toBe(true);
    expect(error).toMatchObject({
      statusCode: 410,
      reason: "Expired",
      message: "too old resource version: 3 (7)",
    });

    const plugged = harness.transport(s.url, {
      protobufWatchFrameDecoder: (f) => ({ type: "MODIFIED", object: { bytes: f.length } }),
    });
    const seen: WatchEvent[] = [];
    for await (const e of plugged.watch(pods)) seen.push(e);
    expect(seen.map((e) => e.type)).toEqual(["MODIFIED", "MODIFIED"]);

    // Without a decoder (no protobuf codec configured) the watch fails with a typed error.
    const bare = await rejection(harness.transport(s.url).watch(pods).next());
    expect(bare).toBeInstanceOf(UnsupportedWatchContentTypeError);
  });

  it("refuses a watch body of a content type it has no decoder for", async () => {
    const s = await harness.serve((_seen, _req, res) => {
      startStream(res, "application/yaml");
      res.end("type: ADDED\n");
    });
    expect(await rejection(harness.transport(s.url).watch(pods).next())).toBeInstanceOf(
      UnsupportedWatchContentTypeError,
    );
  });
});
