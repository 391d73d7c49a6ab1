/** Protobuf watch frames: meta.v1.WatchEvent{type, object: RawExtension{raw: enveloped object}}. */
import {
  decodeObject,
  decodeWatchEvent,
  encodeObject,
  encodeWatchEvent,
  protoMagic,
  protoMessageNames,
  protoType,
} from "@kubesdk/models";
import { describe, expect, test } from "vitest";
import { codeOf } from "./helpers.js";

const configMap = {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: {
    name: "watched",
    namespace: "default",
    resourceVersion: "17",
    creationTimestamp: "2026-01-02T03:04:05Z",
  },
  data: { key: "value" },
};
const gone = {
  apiVersion: "v1",
  kind: "Status",
  metadata: {},
  status: "Failure",
  message: "too old resource version: 1 (17)",
  reason: "Expired",
  code: 410,
};

function frame(fields: { type?: string; raw?: Uint8Array }): Uint8Array {
  return protoType(protoMessageNames.watchEvent)
    .encode({ type: fields.type ?? "ADDED", object: { raw: fields.raw ?? new Uint8Array(0) } })
    .finish();
}

describe("watch events", () => {
  test.each([
    ["ADDED", configMap],
    ["MODIFIED", configMap],
    ["DELETED", configMap],
    ["BOOKMARK", { apiVersion: "v1", kind: "ConfigMap", metadata: { resourceVersion: "18" } }],
    ["ERROR", gone],
  ] as const)("%s round-trips", (type, object) => {
    expect(decodeWatchEvent(encodeWatchEvent({ type, object }))).toStrictEqual({ type, object });
  });

  test("the frame is a bare WatchEvent whose object is the enveloped object", () => {
    const encoded = encodeWatchEvent({ type: "ADDED", object: configMap });
    expect(Buffer.from(encoded.subarray(0, 4)).equals(Buffer.from(protoMagic))).toBe(false);
    const message = protoType(protoMessageNames.watchEvent).decode(encoded) as unknown as {
      type: string;
      object: { raw: Uint8Array };
    };
    expect(message.type).toBe("ADDED");
    expect(Buffer.from(message.object.raw).equals(Buffer.from(encodeObject(configMap)))).toBe(true);
    expect(decodeObject(message.object.raw)).toStrictEqual(configMap);
  });

  test("an object embedded as JSON is read too", () => {
    const custom = {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w" },
      spec: { size: 3 },
    };
    expect(decodeWatchEvent(frame({ raw: Buffer.from(JSON.stringify(custom)) }))).toStrictEqual({
      type: "ADDED",
      object: custom,
    });
  });
});

describe("bad watch frames", () => {
  test("bytes that are not a WatchEvent", () => {
    expect(codeOf(() => decodeWatchEvent(Uint8Array.of(0x0a, 0x10, 0x41)))).toBe("PROTOBUF_WATCH_EVENT");
    expect(codeOf(() => decodeWatchEvent(Uint8Array.of(0xff, 0xff)))).toBe("PROTOBUF_WATCH_EVENT");
  });

  test("an unknown or missing event type", () => {
    const raw = encodeObject(configMap);
    expect(codeOf(() => decodeWatchEvent(frame({ type: "RENAMED", raw })))).toBe("PROTOBUF_WATCH_EVENT");
    expect(codeOf(() => decodeWatchEvent(frame({ type: "", raw })))).toBe("PROTOBUF_WATCH_EVENT");
  });

  test("an event without an object, or with one that is not an object", () => {
    expect(codeOf(() => decodeWatchEvent(frame({})))).toBe("PROTOBUF_WATCH_EVENT");
    expect(codeOf(() => decodeWatchEvent(frame({ raw: Buffer.from("[1,2]") })))).toBe("PROTOBUF_WATCH_EVENT");
    expect(codeOf(() => decodeWatchEvent(frame({ raw: Buffer.from("not json") })))).toBe("PROTOBUF_VALUE");
  });

  test("an embedded object that is damaged keeps the envelope's error code", () => {
    const raw = encodeObject(configMap);
    expect(codeOf(() => decodeWatchEvent(frame({ raw: raw.subarray(0, raw.length - 5) })))).toBe(
      "PROTOBUF_ENVELOPE",
    );
  });

  test("encoding rejects unknown event types and kinds without a protobuf form", () => {
    expect(codeOf(() => encodeWatchEvent({ type: "UPSERTED" as "ADDED", object: configMap }))).toBe(
      "PROTOBUF_WATCH_EVENT",
    );
    expect(
      codeOf(() =>
        encodeWatchEvent({ type: "ADDED", object: { apiVersion: "example.com/v1", kind: "Widget" } }),
      ),
    ).toBe("PROTOBUF_UNKNOWN_KIND");
  });
});
