/**
 * One protobuf watch frame (after the 4-byte length prefix, which the stream reader strips): a
 * bare meta.v1.WatchEvent{type, object: RawExtension{raw}} whose raw is an enveloped object.
 */
import { decodeEnveloped, encodeEnveloped, type WireObject, type WireOptions } from "./codec.js";
import { hasMagic } from "./envelope.js";
import { reasonOf, WireError } from "./errors.js";
import { len, runsPast, skip, str, tagOf, WireReader, wrongType } from "./fast-reader.js";
import { varintSize } from "./fast-writer.js";
import { parseEmbeddedJson } from "./scalars.js";

export type WireWatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

export interface WireWatchEvent<T extends object = WireObject> {
  readonly type: WireWatchEventType;
  /** The object; for ERROR a Status. */
  readonly object: T;
}

const eventTypes: ReadonlySet<string> = new Set<WireWatchEventType>([
  "ADDED",
  "MODIFIED",
  "DELETED",
  "BOOKMARK",
  "ERROR",
]);

/** Where readWatchEvent found the object's bytes (start === end: none). */
const found = { start: 0, end: 0 };

/** meta.v1.WatchEvent{type 1, object 2: RawExtension{raw 1}}: the type; the object in `found`. */
function readWatchEvent(r: WireReader, end: number): string {
  let type = "";
  found.start = 0;
  found.end = 0;
  while (r.p < end) {
    const tag = tagOf(r);
    if (tag >>> 3 === 1) {
      if ((tag & 7) !== 2) wrongType(tag, 2);
      type = str(r, end);
    } else if (tag >>> 3 === 2) {
      if ((tag & 7) !== 2) wrongType(tag, 2);
      const e = len(r, end);
      while (r.p < e) {
        const t = tagOf(r);
        if (t >>> 3 === 1) {
          if ((t & 7) !== 2) wrongType(t, 2);
          found.end = len(r, e);
          found.start = r.p;
          r.p = found.end;
        } else skip(r, t, e);
      }
      if (r.p !== e) runsPast();
    } else skip(r, tag, end);
  }
  if (r.p !== end) runsPast();
  return type;
}

/** The frame body for an event; the object must be a built-in kind with apiVersion and kind. */
export function encodeWatchEvent(event: WireWatchEvent<object>): Uint8Array {
  if (!eventTypes.has(event.type)) {
    throw new WireError("PROTOBUF_WATCH_EVENT", `unknown watch event type ${JSON.stringify(event.type)}`);
  }
  const type = event.type;
  // WatchEvent{type 1, object 2: RawExtension{raw 1: the envelope}}.
  return encodeEnveloped(event.object, {}, (w, length) => {
    w.varint(10);
    w.string(type);
    w.varint(18);
    w.varint(1 + varintSize(length) + length);
    w.varint(10);
    w.varint(length);
  });
}

/** `options.int64` as for decodeObject. */
export function decodeWatchEvent(
  frame: Uint8Array,
  options: Pick<WireOptions, "int64"> = {},
): WireWatchEvent {
  const r = new WireReader(frame, options.int64 ?? "number");
  let type: string;
  try {
    type = readWatchEvent(r, frame.length);
  } catch (cause) {
    const reason = `truncated or malformed watch event: ${reasonOf(cause)}`;
    throw new WireError("PROTOBUF_WATCH_EVENT", reason, { cause });
  }
  if (!eventTypes.has(type)) {
    throw new WireError("PROTOBUF_WATCH_EVENT", `unknown watch event type ${JSON.stringify(type)}`);
  }
  const { start, end } = found;
  if (start === end) {
    throw new WireError("PROTOBUF_WATCH_EVENT", `${type} event carries no object`);
  }
  // The apiserver embeds the enveloped protobuf object; accept embedded JSON too, as upstream does.
  const object = hasMagic(r.b, start, end)
    ? decodeEnveloped(r, start, end, options, 0)
    : parseEmbeddedJson(r.b.subarray(start, end));
  if (typeof object !== "object" || object === null || Array.isArray(object)) {
    throw new WireError("PROTOBUF_WATCH_EVENT", `${type} event object is not an object`);
  }
  return { type: type as WireWatchEventType, object: object as WireObject };
}
