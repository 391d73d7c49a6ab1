/**
 * One protobuf watch frame (after the 4-byte length prefix, which the stream reader strips): a
 * bare meta.v1.WatchEvent{type, object: RawExtension{raw}} whose raw is an enveloped object.
 */
import { protoMessageNames, protoType } from "../proto.js";
import { decodeObject, encodeObject, type WireObject, type WireOptions } from "./codec.js";
import { hasMagic } from "./envelope.js";
import { reasonOf, WireError } from "./errors.js";
import { GoReader } from "./go-reader.js";
import { planOf } from "./plan.js";
import { bytesOf, parseEmbeddedJson } from "./scalars.js";
import { verifyWire } from "./verify.js";

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

interface WatchEventMessage {
  type?: string;
  object?: { raw?: Uint8Array };
}

/** The frame body for an event; the object must be a built-in kind with apiVersion and kind. */
export function encodeWatchEvent(event: WireWatchEvent<object>): Uint8Array {
  if (!eventTypes.has(event.type)) {
    throw new WireError("PROTOBUF_WATCH_EVENT", `unknown watch event type ${JSON.stringify(event.type)}`);
  }
  const raw = encodeObject(event.object);
  return protoType(protoMessageNames.watchEvent).encode({ type: event.type, object: { raw } }).finish();
}

/** `options.int64` as for decodeObject. */
export function decodeWatchEvent(
  frame: Uint8Array,
  options: Pick<WireOptions, "int64"> = {},
): WireWatchEvent {
  const messageType = protoType(protoMessageNames.watchEvent);
  let message: WatchEventMessage;
  try {
    verifyWire(planOf(messageType), frame);
    message = messageType.decode(new GoReader(frame)) as WatchEventMessage;
  } catch (cause) {
    const reason = `truncated or malformed watch event: ${reasonOf(cause)}`;
    throw new WireError("PROTOBUF_WATCH_EVENT", reason, { cause });
  }
  const type = message.type ?? "";
  if (!eventTypes.has(type)) {
    throw new WireError("PROTOBUF_WATCH_EVENT", `unknown watch event type ${JSON.stringify(type)}`);
  }
  const raw = message.object?.raw;
  if (!raw || raw.length === 0) {
    throw new WireError("PROTOBUF_WATCH_EVENT", `${type} event carries no object`);
  }
  // The apiserver embeds the enveloped protobuf object; accept embedded JSON too, as upstream does.
  const object = hasMagic(raw) ? decodeObject(raw, options) : parseEmbeddedJson(bytesOf(raw));
  if (typeof object !== "object" || object === null || Array.isArray(object)) {
    throw new WireError("PROTOBUF_WATCH_EVENT", `${type} event object is not an object`);
  }
  return { type: type as WireWatchEventType, object: object as WireObject };
}
