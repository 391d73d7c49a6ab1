import {
  encodeObject,
  encodeWatchEvent,
  protoMagic,
  protoMessageNames,
  protoType,
  type WireWatchEvent,
} from "@kubesdk/models";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ApiError,
  EventTooLargeError,
  MalformedEventError,
  TruncatedStreamError,
  UnsupportedWatchContentTypeError,
  WatchDecodeError,
} from "../src/index.js";
import {
  type DecodedWatchEvent,
  decodeProtobufWatchFrame,
  LengthPrefixedFramer,
  WatchDecoder,
  watchDecoderForContentType,
} from "../src/internal.js";

const enc = new TextEncoder();

/** A length-prefixed (protobuf watch) frame. */
function frame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length, false);
  out.set(payload, 4);
  return out;
}

/** Cuts `bytes` at the given positions (any values; reduced modulo the length). */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => (bytes.length === 0 ? 0 : c % (bytes.length + 1))))].sort(
    (a, b) => a - b,
  );
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const p of points) {
    pieces.push(bytes.subarray(start, p));
    start = p;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

/** Feeds all pieces and the end; returns events, or the events seen before the error plus the error. */
function decodeAll<T>(
  decoder: WatchDecoder<T>,
  pieces: Uint8Array[],
): { events: DecodedWatchEvent<T>[]; error?: unknown } {
  const events: DecodedWatchEvent<T>[] = [];
  try {
    for (const piece of pieces) events.push(...decoder.push(piece));
    events.push(...decoder.end());
    return { events };
  } catch (error) {
    if (error instanceof WatchDecodeError) events.push(...(error.precedingEvents as DecodedWatchEvent<T>[]));
    return { events, error };
  }
}

const text = fc.string({ unit: "binary", maxLength: 40 });
// Large values are built by repetition: generating 50 000 random characters per value is slow.
const largeText = fc
  .tuple(fc.string({ unit: "binary", minLength: 1, maxLength: 8 }), fc.integer({ min: 5_000, max: 20_000 }))
  .map(([unit, times]) => unit.repeat(times));
const watchEvent = fc.record({
  type: fc.constantFrom("ADDED", "MODIFIED", "DELETED", "BOOKMARK"),
  object: fc.record({
    kind: fc.constant("ConfigMap"),
    apiVersion: fc.constant("v1"),
    metadata: fc.record({ name: text, resourceVersion: fc.nat().map(String) }),
    data: fc.dictionary(text, fc.oneof({ weight: 9, arbitrary: text }, { weight: 1, arbitrary: largeText })),
  }),
});

function encodeLines(events: unknown[]): Uint8Array {
  return enc.encode(events.map((e) => `${JSON.stringify(e)}\n`).join(""));
}

const jsonDecoder = () => new WatchDecoder({ framing: "json-lines" });

describe("JSON watch decoding", () => {
  it("decodes any events cut at any byte positions", () => {
    fc.assert(
      fc.property(
        fc.array(watchEvent, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (events, cuts) => {
          const { events: decoded, error } = decodeAll(jsonDecoder(), split(encodeLines(events), cuts));
          expect(error).toBeUndefined();
          expect(decoded).toEqual(events);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("decodes a multi-byte character split across chunks", () => {
    const event = { type: "ADDED", object: { data: { emoji: "😀 ü € 𝄞" } } };
    const bytes = encodeLines([event]);
    const emojiAt = Buffer.from(bytes).indexOf(Buffer.from("😀"));
    for (let cut = emojiAt + 1; cut < emojiAt + 4; cut++) {
      const decoder = jsonDecoder();
      expect(decoder.push(bytes.subarray(0, cut))).toEqual([]);
      expect(decoder.push(bytes.subarray(cut))).toEqual([event]);
    }
  });

  it("decodes an event of several megabytes arriving in small chunks", () => {
    const big = { type: "MODIFIED", object: { data: { blob: "x€".repeat(3 * 1024 * 1024) } } };
    const bytes = encodeLines([big, { type: "DELETED", object: {} }]);
    const decoder = jsonDecoder();
    const out: DecodedWatchEvent[] = [];
    for (let i = 0; i < bytes.length; i += 16 * 1024)
      out.push(...decoder.push(bytes.subarray(i, i + 16 * 1024)));
    expect(out).toHaveLength(2);
    expect(out[0]).toEqual(big);
  });

  it("passes over blank lines and accepts a final event without newline", () => {
    const decoder = jsonDecoder();
    expect(
      decoder.push(enc.encode('\n\r\n{"type":"ADDED","object":{"a":1}}\r\n\n{"type":"DELETED","object":{}}')),
    ).toEqual([{ type: "ADDED", object: { a: 1 } }]);
    expect(decoder.end()).toEqual([{ type: "DELETED", object: {} }]);
  });

  it("turns ERROR events into ApiErrors", () => {
    const status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "too old resource version: 123 (456)",
      reason: "Expired",
      code: 410,
    };
    const [event] = jsonDecoder().push(encodeLines([{ type: "ERROR", object: status }]));
    expect(event?.type).toBe("ERROR");
    const error = event?.type === "ERROR" ? event.error : undefined;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      statusCode: 410,
      reason: "Expired",
      message: "too old resource version: 123 (456)",
    });
  });

  it("rejects an event over the size limit, naming limit and size", () => {
    const line = JSON.stringify({ type: "ADDED", object: { data: "y".repeat(200) } });
    const whole = new WatchDecoder({ framing: "json-lines", maxEventBytes: 100 });
    const err = decodeAll(whole, [enc.encode(`${line}\n`)]).error as EventTooLargeError;
    expect(err).toBeInstanceOf(EventTooLargeError);
    expect(err).toMatchObject({
      code: "WATCH_EVENT_TOO_LARGE",
      limitBytes: 100,
      sizeBytes: line.length,
      sizeIsLowerBound: false,
    });
    expect(err.message).toContain("100");
    expect(err.message).toContain(String(line.length));
    // Arriving in pieces, it fails as soon as the limit is passed, without waiting for the newline.
    const streamed = new WatchDecoder({ framing: "json-lines", maxEventBytes: 100 });
    expect(streamed.push(enc.encode(line.slice(0, 60)))).toEqual([]);
    const early = decodeAll(streamed, [enc.encode(line.slice(60, 120))]).error as EventTooLargeError;
    expect(early).toMatchObject({ sizeBytes: 120, sizeIsLowerBound: true });
  });

  it("never skips a malformed line: events before it are kept, then a typed error with an excerpt", () => {
    fc.assert(
      fc.property(
        fc.array(watchEvent, { maxLength: 5 }),
        fc.array(watchEvent, { maxLength: 3 }),
        fc.constantFrom(
          "not json at all",
          '{"type":"ADDED"',
          '{"type":"SOMETHING","object":{}}',
          '{"type":"ADDED","object":[]}',
          "[1,2]",
        ),
        fc.array(fc.nat(), { maxLength: 20 }),
        (before, after, bad, cuts) => {
          const bytes = Buffer.concat([encodeLines(before), enc.encode(`${bad}\n`), encodeLines(after)]);
          const { events, error } = decodeAll(jsonDecoder(), split(bytes, cuts));
          expect(error).toBeInstanceOf(MalformedEventError);
          expect((error as MalformedEventError).excerpt).toContain(bad.slice(0, 10));
          expect(events).toEqual(before);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("truncates long excerpts and reports invalid UTF-8", () => {
    const long = `{"broken": "${"z".repeat(5000)}`;
    const err = decodeAll(jsonDecoder(), [enc.encode(`${long}\n`)]).error as MalformedEventError;
    expect(err.excerpt.length).toBeLessThanOrEqual(201);
    expect(err.message.length).toBeLessThan(300);
    const invalid = decodeAll(jsonDecoder(), [Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])]).error;
    expect(invalid).toMatchObject({ code: "WATCH_EVENT_MALFORMED" });
    expect((invalid as Error).message).toContain("invalid UTF-8");
  });

  it("keeps per-line meaning when a chunk's lines are decoded at once", () => {
    const a = { type: "ADDED", object: { metadata: { name: "a" } } };
    const b = { type: "DELETED", object: { metadata: { name: "ü" } } };
    const good = encodeLines([a, b]);
    // Invalid UTF-8 on the third line of one chunk: the two lines before it are delivered.
    const bad = Buffer.concat([good, Uint8Array.from([0x7b, 0xc3, 0x28, 0x7d, 0x0a]), encodeLines([a])]);
    for (const pieces of [[bad], split(bad, [3, good.length + 2])]) {
      const { events, error } = decodeAll(jsonDecoder(), pieces);
      expect(events).toEqual([a, b]);
      expect((error as Error).message).toContain("invalid UTF-8");
    }
    // CRLF endings, blank lines and a byte-order mark at the start of a line mid-chunk.
    const mixed = Buffer.concat([
      enc.encode(`${JSON.stringify(a)}\r\n \r\n\n`),
      Uint8Array.from([0xef, 0xbb, 0xbf]),
      enc.encode(`${JSON.stringify(b)}\n`),
    ]);
    expect(decodeAll(jsonDecoder(), [mixed])).toEqual({ events: [a, b] });
  });

  it("reports a stream that ends inside an event", () => {
    fc.assert(
      fc.property(fc.array(watchEvent, { maxLength: 4 }), watchEvent, fc.nat(), (complete, last, cut) => {
        const head = encodeLines(complete);
        const lastLine = enc.encode(JSON.stringify(last));
        const keep = 1 + (cut % (lastLine.length - 1)); // 1 .. length-1 bytes of the last event
        const bytes = Buffer.concat([head, lastLine.subarray(0, keep)]);
        const { events, error } = decodeAll(jsonDecoder(), [bytes]);
        expect(error).toBeInstanceOf(TruncatedStreamError);
        expect(error).toMatchObject({ code: "WATCH_STREAM_TRUNCATED", pendingBytes: keep });
        expect(events).toEqual(complete);
      }),
      { numRuns: 60 },
    );
  });

  it("stays failed after an error", () => {
    const decoder = jsonDecoder();
    const first = decodeAll(decoder, [enc.encode("nope\n")]).error;
    expect(() => decoder.push(enc.encode('{"type":"ADDED","object":{}}\n'))).toThrow(first as Error);
  });
});

describe("length-prefixed (protobuf) framing", () => {
  const payloads = fc.array(
    fc.oneof(
      { weight: 8, arbitrary: fc.uint8Array({ maxLength: 300 }) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 70_000, maxLength: 100_000 }) },
    ),
    { maxLength: 10 },
  );

  it("yields the same frames for any split", () => {
    fc.assert(
      fc.property(payloads, fc.array(fc.nat(), { maxLength: 40 }), (frames, cuts) => {
        const framer = new LengthPrefixedFramer(1 << 20);
        const out: Uint8Array[] = [];
        for (const piece of split(Buffer.concat(frames.map(frame)), cuts)) framer.push(piece, out);
        expect(framer.end()).toBeUndefined();
        expect(out.map((f) => Buffer.from(f).toString("hex"))).toEqual(
          frames.map((f) => Buffer.from(f).toString("hex")),
        );
      }),
      { numRuns: 150 },
    );
  });

  it("decodes protobuf frames with the models codec: an ERROR frame's protobuf Status becomes its ApiError", () => {
    const decoder = new WatchDecoder({ framing: "length-prefixed", decodeFrame: decodeProtobufWatchFrame });
    const status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "too old resource version: 3 (7)",
      reason: "Expired",
      code: 410,
    };
    const [error] = decoder.push(
      frame(encodeWatchEvent({ type: "ERROR", object: status } as WireWatchEvent)),
    );
    expect(error?.type).toBe("ERROR");
    const apiError = (error as { error: ApiError }).error;
    expect(apiError).toBeInstanceOf(ApiError);
    expect(apiError).toMatchObject({ statusCode: 410, reason: "Expired", message: status.message });

    // A frame that is not a WatchEvent is a typed error with a hex excerpt, not a crash.
    const garbage = decodeAll(
      new WatchDecoder({ framing: "length-prefixed", decodeFrame: decodeProtobufWatchFrame }),
      [frame(Uint8Array.of(0xff, 0xff))],
    );
    expect(garbage.error).toBeInstanceOf(MalformedEventError);
    expect((garbage.error as MalformedEventError).excerpt).toBe("ffff");
  });

  it("runs frames through a pluggable event decoder", () => {
    const decoder = new WatchDecoder({
      framing: "length-prefixed",
      decodeFrame: (f) => ({ type: "ADDED", object: { hex: Buffer.from(f).toString("hex") } }),
    });
    const bytes = Buffer.concat([frame(Uint8Array.of(1, 2)), frame(Uint8Array.of(3))]);
    const { events } = decodeAll(decoder, split(bytes, [1, 5, 7]));
    expect(events).toEqual([
      { type: "ADDED", object: { hex: "0102" } },
      { type: "ADDED", object: { hex: "03" } },
    ]);
  });

  it("rejects an oversize frame from its header and a stream cut inside a frame", () => {
    const oversize = new WatchDecoder({
      framing: "length-prefixed",
      maxEventBytes: 10,
      decodeFrame: () => ({ type: "ADDED", object: {} }),
    });
    const header = frame(new Uint8Array(11)).subarray(0, 4);
    expect(decodeAll(oversize, [header]).error).toMatchObject({
      code: "WATCH_EVENT_TOO_LARGE",
      sizeBytes: 11,
      limitBytes: 10,
    });
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 50 }), fc.nat(), (payload, cut) => {
        const bytes = frame(payload);
        const keep = 1 + (cut % (bytes.length - 1));
        const d = new WatchDecoder({
          framing: "length-prefixed",
          decodeFrame: () => ({ type: "ADDED", object: {} }),
        });
        expect(decodeAll(d, [bytes.subarray(0, keep)]).error).toMatchObject({
          code: "WATCH_STREAM_TRUNCATED",
          pendingBytes: keep,
        });
      }),
    );
  });
});

describe("limits on nesting and allocation", () => {
  const unknownType = protoType(protoMessageNames.unknown);
  const revisionType = protoType("k8s.io.api.apps.v1.ControllerRevision");
  const envelope = (raw: Uint8Array) =>
    Buffer.concat([
      protoMagic,
      unknownType
        .encode({
          typeMeta: { apiVersion: "apps/v1", kind: "ControllerRevision" },
          raw,
          contentEncoding: "",
          contentType: "",
        })
        .finish(),
    ]);

  it("an object nesting objects thousands of levels deep is a MalformedEventError", () => {
    let bytes: Uint8Array = encodeObject({
      apiVersion: "apps/v1",
      kind: "ControllerRevision",
      metadata: { name: "r" },
    });
    for (let level = 0; level < 3_000; level++) {
      bytes = envelope(revisionType.encode({ data: { raw: bytes }, revision: level }).finish());
    }
    const event = protoType(protoMessageNames.watchEvent)
      .encode({ type: "ADDED", object: { raw: bytes } })
      .finish();
    const { events, error } = decodeAll(
      new WatchDecoder({ framing: "length-prefixed", decodeFrame: decodeProtobufWatchFrame }),
      [frame(event)],
    );
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(MalformedEventError);
    expect((error as Error).message).toMatch(/nested deeper/);
  });

  it("allocates what arrived, not what a length prefix claims", () => {
    const decoder = new WatchDecoder({
      framing: "length-prefixed",
      maxEventBytes: Number.POSITIVE_INFINITY,
      decodeFrame: decodeProtobufWatchFrame,
    });
    const before = process.memoryUsage().arrayBuffers;
    const header = Uint8Array.of(0x7f, 0xff, 0xff, 0xff); // 2 GiB
    expect(decoder.push(Buffer.concat([header, new Uint8Array(1000)]))).toEqual([]);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
    expect(decodeAll(decoder, []).error).toMatchObject({
      code: "WATCH_STREAM_TRUNCATED",
      pendingBytes: 1004,
    });
  });
});

describe("choosing a decoder by content type", () => {
  it("JSON is built in, protobuf takes the given frame decoder; others are refused", () => {
    expect(watchDecoderForContentType("application/json")).toBeInstanceOf(WatchDecoder);
    expect(watchDecoderForContentType("application/json;as=Table;g=meta.k8s.io;v=v1")).toBeInstanceOf(
      WatchDecoder,
    );
    const protobuf = watchDecoderForContentType("application/vnd.kubernetes.protobuf;stream=watch", {
      protobufFrameDecoder: decodeProtobufWatchFrame,
    });
    const event = { type: "ADDED", object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } } };
    expect(protobuf.push(frame(encodeWatchEvent(event as WireWatchEvent)))).toEqual([event]);
    const replaced = watchDecoderForContentType("application/vnd.kubernetes.protobuf;stream=watch", {
      protobufFrameDecoder: () => ({ type: "DELETED", object: {} }),
    });
    expect(replaced.push(frame(Uint8Array.of(1)))).toEqual([{ type: "DELETED", object: {} }]);
    expect(() => watchDecoderForContentType("application/yaml")).toThrow(/application\/yaml/);
    expect(() => watchDecoderForContentType(undefined)).toThrow(UnsupportedWatchContentTypeError);
  });

  it("without a protobuf frame decoder a protobuf watch is refused with a typed error naming the fix", () => {
    const refused = () => watchDecoderForContentType("application/vnd.kubernetes.protobuf;stream=watch");
    expect(refused).toThrow(UnsupportedWatchContentTypeError);
    expect(refused).toThrow(/no protobuf frame decoder is configured/);
    expect(() => new WatchDecoder({ framing: "length-prefixed" })).toThrow(UnsupportedWatchContentTypeError);
  });
});
